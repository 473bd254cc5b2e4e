// Each conversation's own instructions: this feature's part of the IPC contract (merged
// into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { InstructionsText } from './instructions';

export const instructionCalls = {
  /** A conversation's own instructions ('' for none); a new conversation's may be set before its first send. */
  'instructions:get': call(z.strictObject({ conversationId: ConversationId }), z.object({ text: z.string() })),
  'instructions:set': call(
    z.strictObject({ conversationId: ConversationId, text: InstructionsText }),
    z.object({ text: z.string() }),
  ),
} as const;
