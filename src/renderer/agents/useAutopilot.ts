import { useEffect, useState } from 'react';
import type { AutopilotState } from '../../shared/agents';
import { call, useApi, useEvent } from '../api/apiContext';

export function useAutopilot(conversationId: string): { state: AutopilotState | null; continuing: string | null } {
  const api = useApi();
  const [state, setState] = useState<AutopilotState | null>(null);
  const [continuing, setContinuing] = useState<{ next: string; at: number } | null>(null);
  useEffect(() => {
    void call(api, 'autopilot:get', { conversationId }).then(setState, () => {});
  }, [api, conversationId]);
  useEvent(
    'autopilot:state',
    (next) => {
      if (next.conversationId === conversationId) setState(next);
    },
    [conversationId],
  );
  useEvent(
    'autopilot:paused',
    (paused) => {
      if (paused.conversationId === conversationId) setState((s) => (s ? { ...s, pausedReason: paused.reason } : s));
    },
    [conversationId],
  );
  useEvent(
    'autopilot:continuing',
    (event) => {
      if (event.conversationId === conversationId) setContinuing({ next: event.next, at: Date.now() });
    },
    [conversationId],
  );
  // "Continuing: …" stays for about two seconds.
  useEffect(() => {
    if (!continuing) return;
    const timer = setTimeout(() => setContinuing(null), 2000);
    return () => clearTimeout(timer);
  }, [continuing]);
  return { state, continuing: continuing?.next ?? null };
}
