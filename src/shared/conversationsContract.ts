// Conversations and their messages as stored: listing, search, reading, renaming and
// deleting; this feature's part of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call, Page } from './contract';
import { Conversation, ConversationId, ConversationSummary, ConversationTitle, Message } from './domain';

export const conversationCalls = {
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
} as const;

export const conversationEvents = {
  /** A conversation was created, changed (title, pin, activity) or deleted. */
  'conversations:changed': z.object({
    id: ConversationId,
    kind: z.enum(['created', 'updated', 'deleted']),
    conversation: ConversationSummary.nullable(),
  }),
  /** A message was stored or changed (streaming text, status). */
  'messages:changed': z.object({ conversationId: ConversationId, message: Message }),
  /** Messages from `fromId` on left the shown branch (retry; a new version by edit or regenerate). */
  'messages:removed': z.object({ conversationId: ConversationId, fromId: z.number().int() }),
} as const;
