import type { PlanState } from '../../shared/planContract';
import { followedCall, useQuery } from '../query/useQuery';

/**
 * Plan review's state of a conversation. It follows the task list, the agent's turns, the
 * default mode and the tools, and the core pushes `plan:state` on each of those changes,
 * so the view reads it once and follows that one event.
 */
export function usePlanState(conversationId: string): PlanState | null {
  const [state] = useQuery(
    followedCall({
      call: 'plan:get',
      params: { conversationId },
      event: 'plan:state',
      pick: (next) => (next.conversationId === conversationId ? next : undefined),
    }),
    null,
  );
  return state;
}
