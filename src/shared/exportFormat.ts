// The documented file formats of Stepwise exports (docs/export-format.md). Exports are
// validated against these schemas in tests, and a conversation import parses with them,
// so the documentation, the writer and the reader cannot drift apart.
import { z } from 'zod';
import { MessageOrigin, MessageRole, MessageStatus } from './domain';
import { TaskStatus } from './tasks';
import { INSTRUCTIONS_MAX } from './instructions';

export const TASKS_FORMAT = 'stepwise.tasks';
export const TASKS_VERSION = 1;
export const CONVERSATION_FORMAT = 'stepwise.conversation';
export const CONVERSATION_VERSION = 1;

/** A moment in UTC, e.g. `2026-05-01T09:30:00.000Z` (what `Date#toISOString` writes). */
export const IsoTime = z.iso.datetime({ error: 'must be an ISO 8601 UTC time like 2026-05-01T09:30:00.000Z' });

/** One change to a task: who made it, what kind, and the values before and after. */
export const TaskEventExport = z.strictObject({
  /** Order of the event in this file (1..n): events are listed oldest first. */
  id: z.number().int().min(1),
  at: IsoTime,
  /** `model`, `user`, or a worker's owner id such as `worker-2`. */
  actor: z.string(),
  kind: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type TaskEventExport = z.infer<typeof TaskEventExport>;

const TaskId = z.number().int().min(1);
/** A task list's number within its conversation: 1 is the first list ever made there. */
const ListNumber = z.number().int().min(1);

// ---- stepwise.tasks ------------------------------------------------------------------

export const TasksExportTask = z.strictObject({
  /** The id the model and the user see (1..n within its list). */
  id: TaskId,
  title: z.string(),
  description: z.string(),
  activeForm: z.string(),
  status: TaskStatus,
  owner: z.string(),
  /** Ids of the tasks in the same list that this one waits for. */
  blockedBy: z.array(TaskId),
  createdAt: IsoTime,
  completedAt: IsoTime.nullable(),
  events: z.array(TaskEventExport),
});

export const TasksExportList = z.strictObject({
  id: ListNumber,
  createdAt: IsoTime,
  /** null while the list is the conversation's open list. */
  closedAt: IsoTime.nullable(),
  tasks: z.array(TasksExportTask),
  /** Events of the list itself (e.g. closed, reordered) and of tasks deleted since. */
  events: z.array(TaskEventExport),
});

export const TasksExport = z.strictObject({
  format: z.literal(TASKS_FORMAT),
  version: z.literal(TASKS_VERSION),
  exportedAt: IsoTime,
  conversations: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      lists: z.array(TasksExportList),
    }),
  ),
});
export type TasksExport = z.infer<typeof TasksExport>;

// ---- stepwise.conversation -----------------------------------------------------------

/** Message number within the export (1..n, in order); tasks refer to messages by it. */
const MessageNumber = z.number().int().min(1);

export const ConversationExportMessage = z.strictObject({
  id: MessageNumber,
  role: MessageRole,
  content: z.string(),
  createdAt: IsoTime,
  /** Tool calls as the model sent them; unknown fields are kept as they are. */
  toolCalls: z.array(z.looseObject({ id: z.string(), name: z.string(), arguments: z.string() })).nullable(),
  toolCallId: z.string().nullable(),
  toolName: z.string().nullable(),
  status: MessageStatus,
  error: z.string().nullable(),
  origin: MessageOrigin,
});
export type ConversationExportMessage = z.infer<typeof ConversationExportMessage>;

export const ConversationExportTask = TasksExportTask.extend({
  position: z.number().int(),
  updatedAt: IsoTime,
  /** The message (by its number in this export) where the task last changed. */
  lastMessageId: MessageNumber.nullable(),
});

export const ConversationExportList = TasksExportList.extend({
  tasks: z.array(ConversationExportTask),
});

export const ConversationExportWorker = z.strictObject({
  /** 1..n within the conversation: "Worker 2". */
  number: z.number().int().min(1),
  owner: z.string(),
  taskId: TaskId.nullable(),
  description: z.string(),
  expectedOutput: z.string(),
  status: z.enum(['queued', 'running', 'done', 'error', 'stopped']),
  result: z.string().nullable(),
  createdAt: IsoTime,
  finishedAt: IsoTime.nullable(),
  /** The worker's own transcript. */
  title: z.string(),
  messages: z.array(ConversationExportMessage),
});

export const ConversationExport = z.strictObject({
  format: z.literal(CONVERSATION_FORMAT),
  version: z.literal(CONVERSATION_VERSION),
  exportedAt: IsoTime,
  conversation: z.strictObject({
    id: z.string(),
    title: z.string(),
    titleSource: z.enum(['user', 'auto']),
    pinned: z.boolean(),
    /** null: follows the "Autopilot on for new conversations" setting. */
    autopilot: z.boolean().nullable(),
    createdAt: IsoTime,
    updatedAt: IsoTime,
    /** The conversation's own instructions; absent in files written before they existed. */
    instructions: z.string().max(INSTRUCTIONS_MAX).optional(),
  }),
  messages: z.array(ConversationExportMessage),
  taskLists: z.array(ConversationExportList),
  workers: z.array(ConversationExportWorker),
});
export type ConversationExport = z.infer<typeof ConversationExport>;
