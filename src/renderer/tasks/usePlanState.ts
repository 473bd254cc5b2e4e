import { useCallback, useEffect, useState } from 'react';
import type { PlanState } from '../../shared/planContract';
import { call, useApi, useEvent } from '../api/apiContext';

/**
 * Plan review's state of a conversation. The phase follows the task list and the agent's
 * turns, so it is read again when either changes, besides the core's own `plan:state`.
 */
export function usePlanState(conversationId: string): PlanState | null {
  const api = useApi();
  const [state, setState] = useState<PlanState | null>(null);
  const reload = useCallback(() => {
    void call(api, 'plan:get', { conversationId }).then(setState, () => {});
  }, [api, conversationId]);
  useEffect(reload, [reload]);
  useEvent('plan:state', (next) => next.conversationId === conversationId && setState(next), [conversationId]);
  useEvent('tasks:changed', (change) => change.conversationId === conversationId && reload(), [conversationId, reload]);
  useEvent('chat:status', (status) => status.conversationId === conversationId && reload(), [conversationId, reload]);
  useEvent('settings:changed', reload, [reload]);
  return state;
}
