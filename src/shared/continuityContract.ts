// Task lists that outlive Stop and restarts: whether a conversation's agents were left
// mid-list, and the call that resumes them (docs/task-lists.md, "Continuity").
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';

/**
 * `stopped`: the user pressed Stop. `paused`: a turn ended (or failed) with unfinished
 * tasks and nobody stopped it, Autopilot off. `interrupted`: the agent or a worker was
 * running when Stepwise quit or crashed. null: nothing to continue (or the agent runs now).
 */
export const ContinuityKind = z.enum(['stopped', 'paused', 'interrupted']);
export type ContinuityKind = z.infer<typeof ContinuityKind>;

export const Continuity = z.object({ conversationId: ConversationId, kind: ContinuityKind.nullable() });
export type Continuity = z.infer<typeof Continuity>;

const ForConversation = z.strictObject({ conversationId: ConversationId });

export const continuityCalls = {
  'continuity:get': call(ForConversation, Continuity),
  /** "Continue remaining tasks": a quiet message sends the agent on at the current task. */
  'continuity:resume': call(ForConversation, Continuity),
} as const;

export const continuityEvents = {
  /** Whether a conversation's agents were left mid-list changed. */
  'continuity:changed': Continuity,
} as const;
