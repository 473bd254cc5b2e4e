import { useCallback, useEffect, useState } from 'react';
import type { PlanState } from '../../shared/planContract';
import { call, useApi, useEvent } from '../api/apiContext';

/**
 * Plan review's state of a conversation. The phase follows the task list and the agent's
 * turns, so with review on it is read again when either changes, besides the core's own
 * `plan:state`. With review off nothing but the mode can change it (pushed, or a new
 * default in Settings), so task changes cost no extra call.
 */
export function usePlanState(conversationId: string): PlanState | null {
  const api = useApi();
  const [state, setState] = useState<PlanState | null>(null);
  const off = state?.mode === 'off';
  const reload = useCallback(() => {
    void call(api, 'plan:get', { conversationId }).then(setState, () => {});
  }, [api, conversationId]);
  const follow = useCallback(() => {
    if (!off) reload();
  }, [off, reload]);
  useEffect(reload, [reload]);
  useEvent('plan:state', (next) => next.conversationId === conversationId && setState(next), [conversationId]);
  useEvent('tasks:changed', (change) => change.conversationId === conversationId && follow(), [conversationId, follow]);
  useEvent('chat:status', (status) => status.conversationId === conversationId && follow(), [conversationId, follow]);
  useEvent('settings:changed', reload, [reload]);
  // A held call can no longer run once its tool is gone (its MCP server disconnected).
  const holding = !!state?.calls.length;
  useEvent('mcp:changed', () => holding && reload(), [holding, reload]);
  return state;
}
