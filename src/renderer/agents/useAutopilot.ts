import { flushSync } from 'react-dom';
import type { AutopilotState } from '../../shared/agents';
import { call } from '../api/apiContext';
import { useQuery, type Query } from '../query/useQuery';

function autopilot(conversationId: string): Query<AutopilotState> {
  return {
    key: `autopilot:get ${conversationId}`,
    load: (api) => call(api, 'autopilot:get', { conversationId }),
    follow: (api, control) =>
      api.on('autopilot:state', (next) => {
        if (next.conversationId === conversationId) flushSync(() => control.set(next));
      }),
  };
}

/**
 * Autopilot's state as the core pushes it. Each push is rendered on its own (flushSync):
 * with a fast model, "checking" and "Continuing: …" can follow each other within one
 * frame, and batching them would hide a step's line.
 */
export function useAutopilot(conversationId: string): AutopilotState | null {
  const [state] = useQuery(autopilot(conversationId), null);
  return state;
}
