import type { ContinuityKind } from '../../shared/continuityContract';
import { useFollowed } from '../common/useFollowed';

/** Whether the conversation's agents were left mid-list (stopped or interrupted), live from `continuity:changed`. */
export function useContinuity(conversationId: string): ContinuityKind | null {
  const [state] = useFollowed(
    {
      call: 'continuity:get',
      params: { conversationId },
      event: 'continuity:changed',
      pick: (next) => (next.conversationId === conversationId ? next : undefined),
    },
    null,
  );
  // Kept with its conversation: a state read for the previous one is never shown for this one.
  return state?.conversationId === conversationId ? state.kind : null;
}
