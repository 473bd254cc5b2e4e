import { useEffect, useState } from 'react';
import type { Continuity, ContinuityKind } from '../../shared/continuityContract';
import { call, useApi, useEvent } from '../api/apiContext';

/** Whether the conversation's agents were left mid-list (stopped or interrupted), live from `continuity:changed`. */
export function useContinuity(conversationId: string): ContinuityKind | null {
  const api = useApi();
  // Kept with its conversation: a state read for the previous one is never shown for this one.
  const [state, setState] = useState<Continuity | null>(null);
  useEffect(() => {
    void call(api, 'continuity:get', { conversationId }).then(setState, () => {});
  }, [api, conversationId]);
  useEvent(
    'continuity:changed',
    (next) => {
      if (next.conversationId === conversationId) setState(next);
    },
    [conversationId],
  );
  return state?.conversationId === conversationId ? state.kind : null;
}
