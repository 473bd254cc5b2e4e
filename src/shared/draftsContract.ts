// Unsent composer text: this feature's part of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call, Empty } from './contract';
import { ConversationId } from './domain';
import { Draft, DraftContent } from './drafts';

export const draftCalls = {
  /** Every unsent draft, newest first (drafts of new conversations included). */
  'drafts:list': call(Empty, z.array(Draft)),
  /** Saves a conversation's unsent text; empty text forgets the draft. */
  'drafts:save': call(
    z.strictObject({ conversationId: ConversationId, content: DraftContent }),
    z.object({ saved: z.boolean() }),
  ),
} as const;
