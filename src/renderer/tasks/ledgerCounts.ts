// How many tool calls each task of a conversation's open list made, shared by every row
// of the header: one `ledger:counts` request per conversation, then live from
// `ledger:changed`. Dropped when the last row of that conversation unmounts.
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { StepwiseApi } from '../../shared/ipc';
import { call, useApi } from '../api/apiContext';

interface Entry {
  listId: number | null;
  counts: Map<number, number>;
  listeners: Set<() => void>;
  unsubscribe: () => void;
  /** The list the last request was for; a new list (ids restart at 1) asks again. */
  requested: number | null | undefined;
}

const entries = new Map<string, Entry>();

function notify(entry: Entry) {
  for (const listener of entry.listeners) listener();
}

function load(api: StepwiseApi, conversationId: string, entry: Entry, listId: number) {
  if (entry.requested === listId) return;
  entry.requested = listId;
  call(api, 'ledger:counts', { conversationId }).then(
    (result) => {
      if (entries.get(conversationId) !== entry) return;
      entry.listId = result.listId;
      entry.counts = new Map(result.counts.map((c) => [c.taskId, c.count]));
      notify(entry);
    },
    () => {
      entry.requested = undefined;
    },
  );
}

function subscribe(api: StepwiseApi, conversationId: string, listener: () => void): () => void {
  let entry = entries.get(conversationId);
  if (!entry) {
    const created: Entry = {
      listId: null,
      counts: new Map(),
      listeners: new Set(),
      unsubscribe: () => {},
      requested: undefined,
    };
    created.unsubscribe = api.on('ledger:changed', (change) => {
      if (change.conversationId !== conversationId) return;
      if (created.listId !== change.listId) {
        created.listId = change.listId;
        created.counts = new Map();
      }
      created.counts.set(change.taskId, change.count);
      created.counts = new Map(created.counts);
      notify(created);
    });
    entries.set(conversationId, created);
    entry = created;
  }
  const current = entry;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size === 0) {
      current.unsubscribe();
      entries.delete(conversationId);
    }
  };
}

/** The number of tool calls a task of the open list `listId` made so far. */
export function useToolCallCount(conversationId: string, listId: number, taskId: number): number {
  const api = useApi();
  const subscribeHere = useCallback(
    (listener: () => void) => subscribe(api, conversationId, listener),
    [api, conversationId],
  );
  // A stable snapshot reader: a new one each render makes React schedule an effect for every row rendered.
  const snapshot = useCallback(() => {
    const entry = entries.get(conversationId);
    return entry && entry.listId === listId ? (entry.counts.get(taskId) ?? 0) : 0;
  }, [conversationId, listId, taskId]);
  const count = useSyncExternalStore(subscribeHere, snapshot);
  // After the store's own subscription: the entry exists by now.
  useEffect(() => {
    const entry = entries.get(conversationId);
    if (entry) load(api, conversationId, entry, listId);
  }, [api, conversationId, listId]);
  return count;
}
