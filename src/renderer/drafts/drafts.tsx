// React access to the draft store: one store per API, read with useSyncExternalStore.
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useApi } from '../api/apiContext';
import { createDraftStore, type DraftEntry, type DraftStore } from './draftStore';

const DraftContext = createContext<DraftStore | null>(null);

export function DraftsProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const [store] = useState(() => createDraftStore(api));
  useEffect(() => void store.load(), [store]);
  return <DraftContext.Provider value={store}>{children}</DraftContext.Provider>;
}

export function useDrafts(): DraftStore {
  const store = useContext(DraftContext);
  if (!store) throw new Error('useDrafts outside DraftsProvider');
  return store;
}

const NO_DRAFT: DraftEntry = { text: '', sending: false };

/** The draft of one conversation (an empty one for `null`). */
export function useDraft(id: string | null): DraftEntry {
  const store = useDrafts();
  return useSyncExternalStore(store.subscribe, () => (id ? store.get(id) : NO_DRAFT));
}

export function useDraftsReady(): boolean {
  const store = useDrafts();
  return useSyncExternalStore(store.subscribe, store.isReady);
}
