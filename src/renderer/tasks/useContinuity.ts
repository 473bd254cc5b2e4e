import type { ContinuityKind } from '../../shared/continuityContract';
import { followedCall, useQuery } from '../query/useQuery';

/** Whether the conversation's agents were left mid-list (stopped or interrupted), live from `continuity:changed`. */
export function useContinuity(conversationId: string): ContinuityKind | null {
  const [state] = useQuery(
    followedCall({
      call: 'continuity:get',
      params: { conversationId },
      event: 'continuity:changed',
      pick: (next) => (next.conversationId === conversationId ? next : undefined),
    }),
    null,
  );
  return state?.kind ?? null;
}
