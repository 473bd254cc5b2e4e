// "Do this now" signals from the shell to a view (focus the composer, rename the
// conversation, show a message, focus Settings), in place of counters passed down as
// props. A request is addressed to one view (a conversation's id, or SETTINGS_VIEW) and
// kept until that view takes it, so a view that mounts because of the same click (another
// conversation opened at a search result) still gets it; a newer request of the same kind
// replaces it.

export interface RequestPayloads {
  focusComposer: null;
  rename: null;
  showMessage: { messageId: number };
  focusSettings: null;
}

/** The address of the Settings page's requests. */
export const SETTINGS_VIEW = 'settings';
export type RequestKind = keyof RequestPayloads;

export interface Requests {
  request<K extends RequestKind>(kind: K, target: string, payload: RequestPayloads[K]): void;
  /** Drops a pending request of this kind (a navigation that asks for none). */
  cancel(kind: RequestKind): void;
  /** The pending request of `kind` for `target`, taken: no other view gets it again. */
  take<K extends RequestKind>(kind: K, target: string): { payload: RequestPayloads[K] } | undefined;
  subscribe(listener: () => void): () => void;
}

export function createRequests(): Requests {
  const pending: { [K in RequestKind]?: { target: string; payload: RequestPayloads[K] } } = {};
  const listeners = new Set<() => void>();
  return {
    request(kind, target, payload) {
      Object.assign(pending, { [kind]: { target, payload } });
      for (const listener of listeners) listener();
    },
    cancel: (kind) => void delete pending[kind],
    take<K extends RequestKind>(kind: K, target: string) {
      const found = pending[kind];
      if (!found || found.target !== target) return undefined;
      delete pending[kind];
      return { payload: found.payload };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
