// Stop: halts Autopilot, approvals, the agent and every worker of a conversation at once;
// this feature's part of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ChatStatus, ConversationId } from './domain';

export const stopCalls = {
  /** Stops the conversation's agent loop; the partial reply stays, marked stopped. */
  'chat:stop': call(z.strictObject({ conversationId: ConversationId }), ChatStatus),
} as const;
