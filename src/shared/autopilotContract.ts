// Autopilot: continuing with the next task on its own, and its pauses; this feature's part
// of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { AutopilotState } from './agents';

export const autopilotCalls = {
  'autopilot:get': call(z.strictObject({ conversationId: ConversationId }), AutopilotState),
  'autopilot:set': call(z.strictObject({ conversationId: ConversationId, enabled: z.boolean() }), AutopilotState),
  /** The "Continue" button after Autopilot paused. */
  'autopilot:continue': call(z.strictObject({ conversationId: ConversationId }), AutopilotState),
} as const;

export const autopilotEvents = {
  /** Autopilot is about to continue with the next task. */
  'autopilot:continuing': z.object({ conversationId: ConversationId, next: z.string() }),
  /** Autopilot paused; `reason` is shown to the user. */
  'autopilot:paused': z.object({ conversationId: ConversationId, reason: z.string() }),
  'autopilot:state': AutopilotState,
} as const;
