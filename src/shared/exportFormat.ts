// The documented file formats of Stepwise exports (docs/export-format.md). Exports are
// validated against these schemas in tests, and a conversation import parses with them,
// so the documentation, the writer and the reader cannot drift apart.
import { z } from 'zod';
import { MessageOrigin, MessageRole, MessageStatus, Reasoning } from './domain';
import { TaskStatus } from './tasks';
import { ToolOutcome } from './ledger';
import { INSTRUCTIONS_MAX } from './instructions';
import { FOLDER_NAME_MAX } from './folders';
import { PLAN_REVIEW_MODES } from './planModes';
import { MessageKind } from './messageKinds';
import { IsoTime } from './isoTime';
import { RoutineExport } from './routinesExport';

export { IsoTime };

export const TASKS_FORMAT = 'stepwise.tasks';
/** 2 added each task's `toolCalls` (the task ledger). */
export const TASKS_VERSION = 2;
export const CONVERSATION_FORMAT = 'stepwise.conversation';
/** 2 added each task's `toolCalls` (the task ledger); version 1 files still import. */
export const CONVERSATION_VERSION = 2;

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

/** A tool call made while the task was in progress (secret-looking values masked). */
export const ToolCallExport = z.strictObject({
  name: z.string(),
  /** The arguments as JSON text, as the model sent them. */
  arguments: z.string(),
  outcome: ToolOutcome,
  startedAt: IsoTime,
  endedAt: IsoTime,
  /** The first 500 characters of the result. */
  result: z.string(),
});

const TasksExportTaskV1 = z.strictObject({
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

export const TasksExportTask = TasksExportTaskV1.extend({
  /** Tool calls made while the task was in progress, oldest first. */
  toolCalls: z.array(ToolCallExport),
});

function listOf<T extends z.ZodType>(task: T) {
  return z.strictObject({
    id: ListNumber,
    createdAt: IsoTime,
    /** null while the list is the conversation's open list. */
    closedAt: IsoTime.nullable(),
    tasks: z.array(task),
    /** Events of the list itself (e.g. closed, reordered) and of tasks deleted since. */
    events: z.array(TaskEventExport),
  });
}

const TasksExportListV1 = listOf(TasksExportTaskV1);
export const TasksExportList = listOf(TasksExportTask);

function tasksExportOf<V extends number, L extends z.ZodType>(version: V, list: L) {
  return z.strictObject({
    format: z.literal(TASKS_FORMAT),
    version: z.literal(version),
    exportedAt: IsoTime,
    conversations: z.array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        lists: z.array(list),
      }),
    ),
  });
}

/** The format before the task ledger (docs/schemas/stepwise.tasks.v1.schema.json). */
export const TasksExportV1 = tasksExportOf(1, TasksExportListV1);
export const TasksExport = tasksExportOf(TASKS_VERSION, TasksExportList).extend({
  /**
   * Every routine with its run history, as in a `stepwise.routines` file; only in the
   * export of every task list ("Export all task lists…"). Absent in other scopes.
   */
  routines: z.array(RoutineExport).optional(),
});
export type TasksExport = z.infer<typeof TasksExport>;

// ---- stepwise.conversation -----------------------------------------------------------

/** Message number within the export (1..n, in order); tasks refer to messages by it. */
const MessageNumber = z.number().int().min(1);

/** A file attached to a user message, with its bytes. */
export const ConversationExportAttachment = z.strictObject({
  name: z.string().min(1).max(255),
  mimeType: z.string().max(200),
  /** Bytes of the file. */
  size: z.number().int().min(0),
  /** The file as base64; null when it was missing from disk at export (an import skips it). */
  data: z.string().nullable(),
});
export type ConversationExportAttachment = z.infer<typeof ConversationExportAttachment>;

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
  /** A reasoning model's thinking before this reply (absent in files from before it was kept). */
  reasoning: Reasoning.nullable().optional(),
  /** The model that wrote a reply (absent in files from before per-conversation models). */
  model: z.string().nullable().optional(),
  /** Tokens the server reported, and the cost when prices were set. */
  usage: z
    .strictObject({
      promptTokens: z.number().int().min(0),
      completionTokens: z.number().int().min(0),
      cost: z.number().min(0).nullable(),
    })
    .nullable()
    .optional(),
  /** On a compaction summary: the number of the last message it stands in for. */
  summaryThrough: MessageNumber.nullable().optional(),
  /**
   * Message versions (only in transcripts that have some): the message before this one on
   * its branch (null for the first), and whether it is on the branch that is shown.
   * Absent: the previous message of the transcript, shown.
   */
  parent: MessageNumber.nullable().optional(),
  shown: z.boolean().optional(),
  /** Files attached to a user message (absent: none, and in files from before attachments). */
  attachments: z.array(ConversationExportAttachment).optional(),
  /**
   * What the message is (docs/chat-engine.md, "Message kinds"); absent in files from before
   * kinds, whose messages an import reads as their old texts said.
   */
  kind: MessageKind.optional(),
  /** A plumbing kind's fields (the kind's schema without `kind`); absent for other kinds. */
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type ConversationExportMessage = z.infer<typeof ConversationExportMessage>;

const ConversationExportTaskV1 = TasksExportTaskV1.extend({
  position: z.number().int(),
  updatedAt: IsoTime,
  /** The message (by its number in this export) where the task last changed. */
  lastMessageId: MessageNumber.nullable(),
});

/** A ledger entry with what an import needs to link it to its card again. */
export const ConversationToolCallExport = ToolCallExport.extend({
  /** `main` or the worker's owner id (e.g. `worker-2`) that made the call. */
  agent: z.string(),
  /** The id the model gave the call (the tool message's `toolCallId`). */
  toolCallId: z.string(),
  /** The tool result message (by its number in this export), or null when it is gone. */
  messageId: MessageNumber.nullable(),
});

export const ConversationExportTask = ConversationExportTaskV1.extend({
  toolCalls: z.array(ConversationToolCallExport),
});

const ConversationExportListV1 = TasksExportListV1.extend({
  tasks: z.array(ConversationExportTaskV1),
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

function conversationExportOf<V extends number, L extends z.ZodType>(version: V, list: L) {
  return z.strictObject({
    format: z.literal(CONVERSATION_FORMAT),
    version: z.literal(version),
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
      /** The provider profile (by id) and model the conversation talks to; null: the default. */
      model: z.strictObject({ profileId: z.string(), model: z.string() }).nullable().optional(),
      /** The conversation's own instructions; absent in files written before they existed. */
      instructions: z.string().max(INSTRUCTIONS_MAX).optional(),
      /** The sidebar folder it was in; an import files it in the folder of that name (made if missing). */
      folder: z.string().max(FOLDER_NAME_MAX).optional(),
    }),
    messages: z.array(ConversationExportMessage),
    taskLists: z.array(list),
    workers: z.array(ConversationExportWorker),
  });
}

/** The format before the task ledger; still imported (its tasks get no tool calls). */
export const ConversationExportV1 = conversationExportOf(1, ConversationExportListV1);
export type ConversationExportV1 = z.infer<typeof ConversationExportV1>;

/** One review of a plan (plan review): changes requested (`approvedAt` null) or approved. */
export const PlanRevisionExport = z.strictObject({
  /** The task list (by its number in `taskLists`) the plan is of. */
  list: ListNumber,
  /** 1, 2, … per list: each Request changes and each approval is a revision. */
  revision: z.number().int().min(1),
  /** The tasks as the user reviewed them, in order. */
  tasks: z.array(z.strictObject({ id: TaskId, title: z.string() })),
  comments: z.strictObject({
    general: z.string(),
    tasks: z.array(z.strictObject({ taskId: TaskId, text: z.string() })),
  }),
  approvedAt: IsoTime.nullable(),
  createdAt: IsoTime,
});
export type PlanRevisionExport = z.infer<typeof PlanRevisionExport>;

const ConversationExportBase = conversationExportOf(CONVERSATION_VERSION, ConversationExportList);
export const ConversationExport = ConversationExportBase.extend({
  conversation: ConversationExportBase.shape.conversation.extend({
    /** "Review plans" (null: follows the default setting); absent in files from before plan review. */
    planReview: z.enum(PLAN_REVIEW_MODES).nullable().optional(),
  }),
  /** Every review of every plan, oldest first; absent in files from before plan review. */
  planRevisions: z.array(PlanRevisionExport).optional(),
});
export type ConversationExport = z.infer<typeof ConversationExport>;

// ---- stepwise.conversations ----------------------------------------------------------

export const CONVERSATIONS_FORMAT = 'stepwise.conversations';
export const CONVERSATIONS_VERSION = 1;

/** Several conversations in one file (a folder's export); each is a whole `stepwise.conversation`. */
export const ConversationsExport = z.strictObject({
  format: z.literal(CONVERSATIONS_FORMAT),
  version: z.literal(CONVERSATIONS_VERSION),
  exportedAt: IsoTime,
  /** The folder exported. */
  folder: z.string(),
  conversations: z.array(ConversationExport),
});
export type ConversationsExport = z.infer<typeof ConversationsExport>;
