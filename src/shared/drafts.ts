// Unsent composer text, one draft per conversation. A new conversation lives only as a
// draft (an id chosen by the page) until its first message is sent.
import { z } from 'zod';
import { ConversationId, MESSAGE_MAX } from './domain';

/** A draft may run past a message's limit (the send then says so); this bounds storage. */
export const DRAFT_MAX = MESSAGE_MAX * 2;

export const DraftContent = z
  .string({ error: 'draft must be text' })
  .max(DRAFT_MAX, { error: `draft must be at most ${DRAFT_MAX} characters` });

export const Draft = z.object({
  conversationId: ConversationId,
  content: z.string(),
  updatedAt: z.number().int(),
  /** False for a new conversation that has not been sent yet. */
  stored: z.boolean(),
});
export type Draft = z.infer<typeof Draft>;
