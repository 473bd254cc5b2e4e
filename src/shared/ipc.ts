// The one IPC contract. Every call the renderer can make and every event main pushes
// is listed here with its zod schema. Both transports (Electron ipcMain/preload and the
// browser host's WebSocket) are generated from these tables, and main validates every
// request against them before any handler runs.
import { z } from 'zod';
import {
  AppCommand,
  ChatStatus,
  Conversation,
  ConversationId,
  ConversationSummary,
  ConversationTitle,
  Message,
  MessageContent,
  MESSAGE_MAX,
  Notice,
  ToolCall,
} from './domain';
import { SettingsPatch, SettingsView } from './settings';
import { RestoredTask, TaskList, TaskTitle, UserTaskPatch } from './tasks';
import { AutopilotState, Worker } from './agents';
import { ModelRef, ProfileId, ProfileInput } from './providers';
import { Question, QuestionReply } from './questions';
import { Draft, DraftContent } from './drafts';
import { LedgerCall, LedgerCounts } from './ledger';
import { InstructionsText } from './instructions';
import {
  AttachmentId,
  AttachmentInfo,
  AttachmentPreview,
  AttachmentPreviewRequest,
  AttachmentUpload,
  ATTACHMENTS_PER_MESSAGE,
} from './attachments';
import { call, Empty, ExportResult, Page } from './contract';
import { mcpCalls, mcpEvents } from './mcpContract';
import { folderCalls, folderEvents } from './foldersContract';
import { continuityCalls, continuityEvents } from './continuityContract';
import { taskShareCalls, taskShareEvents } from './taskShareContract';
import { planCalls, planEvents, PlanReviewMode } from './planContract';
import { boardCalls } from './boardContract';
import { routineCalls, routineEvents } from './routinesContract';

/** Text appended to a string field at a known position, so a stream sends only what is new. */
export const TextAppend = z.object({ at: z.number().int().min(0), text: z.string() });
export type TextAppend = z.infer<typeof TextAppend>;

/** The largest conversation export the page may send for import (the WebSocket allows a bit more). */
export const IMPORT_MAX_CHARS = 100 * 1024 * 1024;

const ExportTasksRequest = z.strictObject({
  /** Required for `history`; `open` without it is the open tasks across conversations; ignored for `all`. */
  conversationId: ConversationId.optional(),
  format: z.enum(['md', 'json', 'csv']),
  scope: z.enum(['open', 'history', 'all']),
});

/** A user message: text, files (ids from `attachments:add`), or both. */
const UserMessage = {
  content: z
    .string({ error: 'message must be text' })
    .max(MESSAGE_MAX, { error: `message must be at most ${MESSAGE_MAX} characters` }),
  attachments: z
    .array(AttachmentId)
    .max(ATTACHMENTS_PER_MESSAGE, { error: `at most ${ATTACHMENTS_PER_MESSAGE} files` })
    .optional(),
};
const hasContent = (m: { content: string; attachments?: string[] }) =>
  m.content.trim().length > 0 || !!m.attachments?.length;
const NOT_EMPTY = { error: 'message must not be empty', path: ['content'] };

export const calls = {
  'app:info': call(
    Empty,
    z.object({
      version: z.string(),
      host: z.enum(['electron', 'browser']),
      dataDir: z.string(),
      platform: z.string(),
    }),
  ),
  'notices:list': call(Empty, z.array(Notice)),
  'notices:dismiss': call(z.strictObject({ id: z.string() }), z.array(Notice)),

  'conversations:list': call(
    z.strictObject({ query: z.string().max(500).default(''), ...Page }),
    // `capped`: a search matched more than `total` conversations ("1,000+").
    z.object({ items: z.array(ConversationSummary), total: z.number().int(), capped: z.boolean().default(false) }),
  ),
  'conversations:get': call(z.strictObject({ id: ConversationId }), Conversation),
  'conversations:create': call(z.strictObject({ title: ConversationTitle.optional() }), Conversation),
  'conversations:rename': call(z.strictObject({ id: ConversationId, title: ConversationTitle }), Conversation),
  'conversations:setPinned': call(z.strictObject({ id: ConversationId, pinned: z.boolean() }), Conversation),
  'conversations:delete': call(z.strictObject({ id: ConversationId }), z.object({ id: ConversationId })),

  /** The newest `limit` messages before `before` (or the newest of all), oldest first. */
  'messages:list': call(
    z.strictObject({
      conversationId: ConversationId,
      before: z.number().int().optional(),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    z.object({ items: z.array(Message), hasMore: z.boolean() }),
  ),
  /** One message as it is now (a streaming reply's live text, not its last save). */
  'messages:get': call(z.strictObject({ conversationId: ConversationId, id: z.number().int() }), Message),
  'messages:send': call(
    z.strictObject({ conversationId: ConversationId, ...UserMessage }).refine(hasContent, NOT_EMPTY),
    Message,
  ),
  /**
   * Stores a new conversation under the id the page chose for its draft and sends its
   * first message, in one step: nothing is stored if either part is refused.
   */
  'conversations:start': call(
    z
      .strictObject({
        id: ConversationId,
        ...UserMessage,
        /** Autopilot as chosen before the first send; absent: follow the default setting. */
        autopilot: z.boolean().optional(),
        /** "Review plans" as chosen before the first send; absent: follow the default setting. */
        planReview: PlanReviewMode.optional(),
      })
      .refine(hasContent, NOT_EMPTY),
    z.object({ conversation: Conversation, message: Message }),
  ),
  /** Stores a file the user attached (its bytes as base64) once per content; send its id with the message. */
  'attachments:add': call(AttachmentUpload, AttachmentInfo),
  /** An attached image's data URL for its thumbnail (or the original, `full`), or why there is none. */
  'attachments:preview': call(AttachmentPreviewRequest, AttachmentPreview),
  /** Every unsent draft, newest first (drafts of new conversations included). */
  'drafts:list': call(Empty, z.array(Draft)),
  /** Saves a conversation's unsent text; empty text forgets the draft. */
  'drafts:save': call(
    z.strictObject({ conversationId: ConversationId, content: DraftContent }),
    z.object({ saved: z.boolean() }),
  ),
  /** A conversation's own instructions ('' for none); a new conversation's may be set before its first send. */
  'instructions:get': call(z.strictObject({ conversationId: ConversationId }), z.object({ text: z.string() })),
  'instructions:set': call(
    z.strictObject({ conversationId: ConversationId, text: InstructionsText }),
    z.object({ text: z.string() }),
  ),

  /** Stops the conversation's agent loop; the partial reply stays, marked stopped. */
  'chat:stop': call(z.strictObject({ conversationId: ConversationId }), ChatStatus),
  /** Runs the loop again after a failed request (the failed reply is replaced). */
  'chat:retry': call(z.strictObject({ conversationId: ConversationId }), ChatStatus),
  /**
   * A new version of the reply to the user message before `messageId` (default: the last
   * reply); the old reply stays as a version.
   */
  'chat:regenerate': call(
    z.strictObject({ conversationId: ConversationId, messageId: z.number().int().optional() }),
    ChatStatus,
  ),
  /** A new version of the last user message, sent again (the old one stays as a version). */
  'chat:editLast': call(z.strictObject({ conversationId: ConversationId, content: MessageContent }), Message),
  /** A new version of any of the user's messages on the shown branch, sent again. */
  'chat:edit': call(
    z.strictObject({ conversationId: ConversationId, messageId: z.number().int(), content: MessageContent }),
    Message,
  ),
  /** Shows version `index` (1-based) of the message's versions; what follows is that version's branch. */
  'messages:showVersion': call(
    z.strictObject({ conversationId: ConversationId, messageId: z.number().int(), index: z.number().int().min(1) }),
    Message,
  ),
  'chat:status': call(z.strictObject({ conversationId: ConversationId }), ChatStatus),

  /** The conversation's open task list (null when it has none). */
  'tasks:get': call(z.strictObject({ conversationId: ConversationId }), z.object({ list: TaskList.nullable() })),
  'tasks:update': call(
    z.strictObject({ conversationId: ConversationId, taskId: z.number().int(), patch: UserTaskPatch }),
    z.object({ list: TaskList.nullable() }),
  ),
  'tasks:add': call(
    z.strictObject({ conversationId: ConversationId, title: TaskTitle }),
    z.object({ list: TaskList.nullable() }),
  ),
  'tasks:delete': call(
    z.strictObject({ conversationId: ConversationId, taskId: z.number().int() }),
    z.object({ list: TaskList.nullable() }),
  ),
  /** Undo of tasks:delete: the deleted task back at its place, with its dependencies. */
  'tasks:restore': call(
    RestoredTask.extend({ conversationId: ConversationId }),
    z.object({ list: TaskList.nullable() }),
  ),
  /** New order of the open list, as task ids, first to last. */
  'tasks:reorder': call(
    z.strictObject({ conversationId: ConversationId, order: z.array(z.number().int()).max(1000) }),
    z.object({ list: TaskList.nullable() }),
  ),
  /** Closes the open list (kept in history). */
  'tasks:clear': call(z.strictObject({ conversationId: ConversationId }), z.object({ list: TaskList.nullable() })),

  /** Task lists as text (Markdown, JSON or CSV), e.g. for "Copy as Markdown". */
  'export:tasksText': call(
    ExportTasksRequest,
    z.object({ text: z.string(), filename: z.string(), mimeType: z.string() }),
  ),
  /**
   * Exports task lists to a file. The desktop app asks for the path in main with the
   * native save dialog; the browser host returns the file for the page to download.
   */
  'export:tasks': call(ExportTasksRequest, ExportResult),
  'export:conversation': call(
    z.strictObject({ conversationId: ConversationId, format: z.enum(['md', 'json']) }),
    ExportResult,
  ),
  /**
   * Imports a conversation export (Stepwise's, or a ChatGPT `conversations.json`) as new conversations. Desktop: main shows the open
   * dialog (send no content). Browser host: the page sends the picked file's text.
   */
  'import:conversation': call(
    z.strictObject({ content: z.string().max(IMPORT_MAX_CHARS).optional() }),
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('imported'),
        conversationId: ConversationId,
        title: z.string(),
        /** A file of several conversations (a ChatGPT export): how many were stored, and which were skipped and why. */
        count: z.number().int().optional(),
        skipped: z.array(z.object({ title: z.string(), reason: z.string() })).optional(),
      }),
      z.object({ kind: z.literal('cancelled') }),
      z.object({ kind: z.literal('needs-file') }),
    ]),
  ),

  /** How many tool calls each task of the open list made (the task ledger). */
  'ledger:counts': call(z.strictObject({ conversationId: ConversationId }), LedgerCounts),
  /** The tool calls made while a task of the open list was in progress, oldest first. */
  'ledger:calls': call(
    z.strictObject({ conversationId: ConversationId, taskId: z.number().int() }),
    z.object({ calls: z.array(LedgerCall) }),
  ),

  'workers:list': call(z.strictObject({ conversationId: ConversationId }), z.array(Worker)),

  /** Every question an agent of the conversation (main or worker) waits on. */
  'questions:list': call(z.strictObject({ conversationId: ConversationId }), z.array(Question)),
  /** Answers a pending question with text or one of its actions; returns the conversation's questions still pending. */
  'questions:answer': call(
    z.strictObject({ questionId: z.string().max(100), reply: QuestionReply }),
    z.array(Question),
  ),

  'autopilot:get': call(z.strictObject({ conversationId: ConversationId }), AutopilotState),
  'autopilot:set': call(z.strictObject({ conversationId: ConversationId, enabled: z.boolean() }), AutopilotState),
  /** The "Continue" button after Autopilot paused. */
  'autopilot:continue': call(z.strictObject({ conversationId: ConversationId }), AutopilotState),

  'settings:get': call(Empty, SettingsView),
  'settings:update': call(z.strictObject({ patch: SettingsPatch }), SettingsView),
  /** Creates (no id) or changes a provider profile. A changed base URL does not get the saved key until confirmed. */
  'providers:save': call(z.strictObject({ profile: ProfileInput }), SettingsView),
  'providers:delete': call(z.strictObject({ id: ProfileId }), SettingsView),
  /** Stores (or with null, forgets) a profile's API key, for its current address. The key never comes back out. */
  'providers:setKey': call(z.strictObject({ id: ProfileId, key: z.string().max(4096).nullable() }), SettingsView),
  /** "Send the saved key to …?" — yes: the saved key follows the profile to its new address. */
  'providers:confirmKey': call(z.strictObject({ id: ProfileId }), SettingsView),
  /** Lists the models a profile's server offers at /models (default: the default profile) and remembers them. */
  'models:list': call(
    // fieldsShown: the caller shows the profile's fields (the first-run card), so errors name them.
    z.strictObject({ profileId: ProfileId.optional(), fieldsShown: z.boolean().optional() }),
    z.object({ models: z.array(z.string()) }),
  ),
  /** Tokens (and cost, where prices were set) the server reported over the whole conversation. */
  'conversations:usage': call(
    z.strictObject({ id: ConversationId }),
    z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), cost: z.number().nullable() }),
  ),
  /** Chooses the profile and model of a conversation (and of new conversations from now on). */
  'conversations:setModel': call(z.strictObject({ id: ConversationId, model: ModelRef }), Conversation),

  ...mcpCalls,
  ...folderCalls,
  ...continuityCalls,
  ...taskShareCalls,
  ...planCalls,
  ...boardCalls,
  ...routineCalls,
} as const;

export const events = {
  ...planEvents,
  /** A conversation was created, changed (title, pin, activity) or deleted. */
  'conversations:changed': z.object({
    id: ConversationId,
    kind: z.enum(['created', 'updated', 'deleted']),
    conversation: ConversationSummary.nullable(),
  }),
  /** A message was stored or changed (streaming text, status). */
  'messages:changed': z.object({ conversationId: ConversationId, message: Message }),
  /**
   * A streaming reply grew: `content.text` goes at `content.at` (the length the renderer
   * must already have; otherwise it fetches the message). Tool calls come whole when they change.
   */
  'messages:streamed': z.object({
    conversationId: ConversationId,
    messageId: z.number().int(),
    content: TextAppend.optional(),
    toolCalls: z.array(ToolCall).nullable().optional(),
    /** The model's reasoning grew (like `content`), and how long it took once it ended. */
    reasoning: TextAppend.optional(),
    reasoningMs: z.number().int().nonnegative().optional(),
  }),
  /** Messages from `fromId` on left the shown branch (retry; a new version by edit or regenerate). */
  'messages:removed': z.object({ conversationId: ConversationId, fromId: z.number().int() }),
  /** Another version was chosen: the shown branch from `messageId` on is different (reload it). */
  'messages:switched': z.object({ conversationId: ConversationId, messageId: z.number().int() }),
  /** A task list changed (any actor). `list` is the open list, or null once closed. */
  'tasks:changed': z.object({ conversationId: ConversationId, list: TaskList.nullable() }),
  /** A tool call was linked to a task of the open list; `count` is that task's calls so far. */
  'ledger:changed': z.object({
    conversationId: ConversationId,
    listId: z.number().int(),
    taskId: z.number().int(),
    count: z.number().int(),
  }),
  /** Workers of a conversation were started, changed state or finished. */
  'workers:changed': z.object({ conversationId: ConversationId, workers: z.array(Worker) }),
  /** The questions agents of a conversation wait on changed (asked, answered, cancelled). */
  'questions:changed': z.object({ conversationId: ConversationId, questions: z.array(Question) }),
  /** Autopilot is about to continue with the next task. */
  'autopilot:continuing': z.object({ conversationId: ConversationId, next: z.string() }),
  /** Autopilot paused; `reason` is shown to the user. */
  'autopilot:paused': z.object({ conversationId: ConversationId, reason: z.string() }),
  'autopilot:state': AutopilotState,
  /** The agent loop of a conversation started, finished or failed. */
  'chat:status': ChatStatus,
  'settings:changed': SettingsView,
  'notices:changed': z.array(Notice),
  /** A native menu item was chosen. */
  'app:command': z.object({ command: AppCommand }),
  ...mcpEvents,
  ...folderEvents,
  ...continuityEvents,
  ...taskShareEvents,
  ...routineEvents,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallRequest<N extends CallName> = z.input<Calls[N]['request']>;
export type CallParams<N extends CallName> = z.output<Calls[N]['request']>;
export type CallResponse<N extends CallName> = z.output<Calls[N]['response']>;
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export const IpcErrorCode = z.enum([
  'invalid_request',
  'unknown_method',
  'not_found',
  'conflict',
  'unavailable',
  'internal',
]);
export const IpcError = z.object({ code: IpcErrorCode, message: z.string() });
export type IpcError = z.infer<typeof IpcError>;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** What the renderer gets, whichever transport carries it. */
export interface StepwiseApi {
  invoke<N extends CallName>(name: N, params: CallRequest<N>): Promise<IpcResult<CallResponse<N>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

// Frames of the browser host's WebSocket transport.
export const WsRequestFrame = z.strictObject({
  id: z.number().int(),
  method: z.string(),
  params: z.unknown(),
});
export const WsResponseFrame = z.union([
  z.object({ id: z.number().int(), result: z.unknown() }),
  z.object({ id: z.number().int(), error: IpcError }),
]);
export const WsEventFrame = z.object({ event: z.string(), payload: z.unknown() });

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** One line a person or a model can act on, e.g. `title: title must not be empty`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
