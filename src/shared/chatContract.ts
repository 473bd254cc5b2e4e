// Sending: a message to a conversation (or a new one), retrying a failed reply, the agent
// loop's status and a reply's stream; this feature's part of the IPC contract (merged into
// shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ChatStatus, Conversation, ConversationId, Message, MESSAGE_MAX, ToolCall } from './domain';
import { AttachmentId, ATTACHMENTS_PER_MESSAGE } from './attachments';
import { PlanReviewMode } from './planContract';

/** Text appended to a string field at a known position, so a stream sends only what is new. */
export const TextAppend = z.object({ at: z.number().int().min(0), text: z.string() });
export type TextAppend = z.infer<typeof TextAppend>;

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

export const chatCalls = {
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
  /** Runs the loop again after a failed request (the failed reply is replaced). */
  'chat:retry': call(z.strictObject({ conversationId: ConversationId }), ChatStatus),
  'chat:status': call(z.strictObject({ conversationId: ConversationId }), ChatStatus),
} as const;

export const chatEvents = {
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
  /** The agent loop of a conversation started, finished or failed. */
  'chat:status': ChatStatus,
} as const;
