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
