// Domain types shared by main and renderer. Types come from the schemas (z.infer),
// so the wire format and the TypeScript types can never drift apart.
import { z } from 'zod';
import { MessageKind, Plumbing } from './messageKinds';
import { AttachmentInfo } from './attachments';

export const ConversationId = z.uuid({ error: 'conversation id must be a UUID' });

export const TITLE_MAX = 200;

export const ConversationTitle = z
  .string({ error: 'title must be text' })
  .trim()
  .min(1, { error: 'title must not be empty' })
  .max(TITLE_MAX, { error: `title must be at most ${TITLE_MAX} characters` });

/** The provider profile and model a conversation talks to. */
export const ConversationModel = z.object({ profileId: z.string(), model: z.string() });

export const Conversation = z.object({
  id: ConversationId,
  title: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  pinned: z.boolean(),
  titleSource: z.enum(['user', 'auto']),
  /** Null: the default model for new conversations (older conversations). */
  model: ConversationModel.nullable().default(null),
  /** The sidebar folder it is in (null: none). */
  folderId: z.string().nullable().default(null),
});
export type Conversation = z.infer<typeof Conversation>;

/** Progress of the conversation's open task list, shown as a `k/N` badge. */
export const TaskBadge = z.object({ done: z.number().int(), total: z.number().int() });

/** In a search result: the newest matching message, with `\u0002`/`\u0003` around matched words. */
export const SearchMatch = z.object({ messageId: z.number().int(), snippet: z.string() });
export type SearchMatch = z.infer<typeof SearchMatch>;

export const ConversationSummary = Conversation.extend({
  tasks: TaskBadge.nullable(),
  match: SearchMatch.optional(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const MessageRole = z.enum(['user', 'assistant', 'tool', 'system']);
export type MessageRole = z.infer<typeof MessageRole>;

/**
 * complete: finished normally. streaming: being written right now.
 * interrupted: the process died mid-reply. stopped: the user stopped it.
 * error: the request failed; `error` says why.
 */
export const MessageStatus = z.enum(['complete', 'streaming', 'interrupted', 'stopped', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCall>;

/**
 * The model's thinking before its answer (`reasoning_content`, `reasoning` or `<think>`),
 * and how long it took; `durationMs` is null while the thinking is still streaming.
 */
export const Reasoning = z.object({
  text: z.string(),
  durationMs: z.number().int().nonnegative().nullable(),
});
export type Reasoning = z.infer<typeof Reasoning>;

/** Who wrote a user-role message: the person, or Stepwise on their behalf. */
export const MessageOrigin = z.enum(['user', 'auto', 'worker', 'system']);

export const MessageUsage = z.object({
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  /** Dollars, when the user entered prices for the model. */
  cost: z.number().min(0).nullable(),
});
export type MessageUsage = z.infer<typeof MessageUsage>;

/**
 * How a tool call ended, recorded with its result (migration 18): the card shows this,
 * never a reading of the result's text (a tool may well answer "The user denied this call.").
 */
export const ToolResultOutcome = z.enum(['ok', 'error', 'denied', 'cancelled', 'not_run', 'held']);
export type ToolResultOutcome = z.infer<typeof ToolResultOutcome>;

export const Message = z.object({
  id: z.number().int(),
  conversationId: ConversationId,
  role: MessageRole,
  content: z.string(),
  createdAt: z.number().int(),
  toolCalls: z.array(ToolCall).nullable(),
  toolCallId: z.string().nullable(),
  toolName: z.string().nullable(),
  status: MessageStatus,
  error: z.string().nullable(),
  origin: MessageOrigin,
  /** Assistant messages of reasoning models; absent or null otherwise. */
  reasoning: Reasoning.nullable().optional(),
  /** Tokens the server reported for this reply (null when it reported none). */
  usage: MessageUsage.nullable().default(null),
  /** The model that wrote an assistant reply. */
  model: z.string().nullable().default(null),
  /** On a summary note: the last message id it stands in for. */
  summaryThrough: z.number().int().nullable().default(null),
  /** "2 of 3": the message has other versions (an edit, a regenerated reply); absent when it has none. */
  version: z
    .object({ index: z.number().int().min(1), count: z.number().int().min(2) })
    .nullable()
    .optional(),
  /** Files attached to a user message (absent: none). */
  attachments: z.array(AttachmentInfo).optional(),
  /** A tool result's outcome; null for other messages and for results stored before it was recorded. */
  outcome: ToolResultOutcome.nullable().optional(),
  /** What the message is (messageKinds.ts); absent on messages built before kinds: read from the role. */
  kind: MessageKind.optional(),
  /** A plumbing message's typed payload (its `kind` is the message's kind); null for other messages. */
  plumbing: Plumbing.nullable().optional(),
});
export type Message = z.infer<typeof Message>;

export const Notice = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  text: z.string(),
});
export type Notice = z.infer<typeof Notice>;

export const MESSAGE_MAX = 200_000;
export const MessageContent = z
  .string({ error: 'message must be text' })
  .max(MESSAGE_MAX, { error: `message must be at most ${MESSAGE_MAX} characters` })
  .refine((s) => s.trim().length > 0, { error: 'message must not be empty' });

/** Commands from the native menu (desktop) that the UI carries out. */
export const AppCommand = z.enum([
  'new-conversation',
  'export-all-tasks',
  'import-conversation',
  'open-settings',
  'open-shortcuts',
]);
export type AppCommand = z.infer<typeof AppCommand>;

/** Why a request to the model failed, and what the user can do about it. */
export const ChatError = z.object({
  kind: z.enum(['auth', 'model', 'rate', 'server', 'network', 'timeout', 'dropped', 'config', 'rounds', 'unknown']),
  message: z.string(),
  /** Offer "Retry". */
  retryable: z.boolean(),
  /** Offer "Open Settings" (e.g. a rejected key, an unknown model). */
  settings: z.boolean(),
  /** The server's own words, when the failure carries them (a 4xx, an error inside the stream). */
  detail: z.string().optional(),
});
export type ChatError = z.infer<typeof ChatError>;

export const ChatStatus = z.object({
  conversationId: ConversationId,
  running: z.boolean(),
  error: ChatError.nullable(),
});
export type ChatStatus = z.infer<typeof ChatStatus>;
