import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type { AutopilotState } from '../../shared/agents';
import { call, useApi, useEvent } from '../api/apiContext';

/**
 * Autopilot's state as the core pushes it. Each push is rendered on its own (flushSync):
 * with a fast model, "checking" and "Continuing: …" can follow each other within one
 * frame, and batching them would hide a step's line.
 */
export function useAutopilot(conversationId: string): AutopilotState | null {
  const api = useApi();
  const [state, setState] = useState<AutopilotState | null>(null);
  useEffect(() => {
    void call(api, 'autopilot:get', { conversationId }).then(setState, () => {});
  }, [api, conversationId]);
  useEvent(
    'autopilot:state',
    (next) => {
      if (next.conversationId === conversationId) flushSync(() => setState(next));
    },
    [conversationId],
  );
  return state;
}
