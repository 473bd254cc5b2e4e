// The browser host's connection state, for the "reconnecting" banner.
import { useSyncExternalStore } from 'react';
import type { ConnectionState } from '../api/wsApi';

let state: ConnectionState = 'open';
const listeners = new Set<() => void>();

export const connectionStore = {
  set(next: ConnectionState) {
    state = next;
    for (const l of listeners) l();
  },
  /** Runs `run` once the connection has opened, or given up (the app then says so). */
  whenSettled(run: () => void) {
    const settled = () => state === 'open' || state === 'restarted';
    if (settled()) return run();
    const listener = () => {
      if (!settled()) return;
      listeners.delete(listener);
      run();
    };
    listeners.add(listener);
  },
};

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
