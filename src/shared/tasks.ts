// Task lists as main and renderer see them. `id` here is the per-list sequence number
// (1..n) that both the model and the user refer to.
import { z } from 'zod';
import { ConversationId } from './domain';

export const TaskStatus = z.enum(['pending', 'in_progress', 'completed', 'cancelled']);
export type TaskStatus = z.infer<typeof TaskStatus>;

export const TASK_TITLE_MAX = 200;

/**
 * Why a worker's task came back to the main agent still in progress: the worker failed,
 * was stopped, or finished without completing it. The row shows a ⚠ while it is set.
 */
export const HandedBack = z.enum(['failed', 'stopped', 'unfinished']);
export type HandedBack = z.infer<typeof HandedBack>;

export const Task = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  activeForm: z.string(),
  status: TaskStatus,
  owner: z.string(),
  position: z.number().int(),
  blockedBy: z.array(z.number().int()),
  /** Blockers that are not completed yet; non-empty means the task is blocked. */
  openBlockers: z.array(z.number().int()),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  completedAt: z.number().int().nullable(),
  lastMessageId: z.number().int().nullable(),
  /** Set on a worker's in-progress task once the worker ended without completing it. */
  handedBack: HandedBack.nullable().optional(),
  /** The other agent (MCP client) whose change the task shows last; null when the user or the conversation's agents made it. */
  changedBy: z.string().nullable().optional(),
});
export type Task = z.infer<typeof Task>;

export const TaskList = z.object({
  id: z.number().int(),
  conversationId: ConversationId,
  createdAt: z.number().int(),
  closedAt: z.number().int().nullable(),
  tasks: z.array(Task),
});
export type TaskList = z.infer<typeof TaskList>;

export const TaskTitle = z
  .string({ error: 'title must be text' })
  .trim()
  .min(1, { error: 'title must not be empty' })
  .max(TASK_TITLE_MAX, { error: `title must be at most ${TASK_TITLE_MAX} characters` });

/** What the user may change on a task from the header. */
export const UserTaskPatch = z.strictObject({
  status: TaskStatus.optional(),
  title: TaskTitle.optional(),
  /** Ids of tasks this one should no longer wait for ("Remove dependency on #N"). */
  removeBlockedBy: z.array(z.number().int()).max(1000).optional(),
});

/** Undo of a delete: the task as it was, its place (0-based) and the tasks it blocked. */
export const RestoredTask = z.strictObject({
  task: z.strictObject({
    id: z.number().int().min(1),
    title: TaskTitle,
    description: z.string().max(2000),
    activeForm: z.string().max(2000),
    status: TaskStatus,
    owner: z.string().min(1).max(200),
    blockedBy: z.array(z.number().int()).max(1000),
    lastMessageId: z.number().int().nullable(),
  }),
  position: z.number().int().min(0),
  blocks: z.array(z.number().int()).max(1000),
});
