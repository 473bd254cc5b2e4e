// Pages of the conversation list, fetched as rows scroll into view, so the sidebar
// stays instant with tens of thousands of conversations. Without a search the rows are
// the sidebar's (folders with their conversations); with one, the matching conversations.
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { SidebarRow } from '../../shared/folders';
import { call, useApi, useEvent } from '../api/apiContext';
import { taskBadge } from '../../shared/taskProgress';
import { badgePatchedPage, patchedPage } from './sidebarPatch';

export const PAGE_SIZE = 100;

export function useConversationPages(query: string) {
  const api = useApi();
  const [total, setTotal] = useState<number | null>(null);
  const [version, setVersion] = useState(0);
  const pages = useRef(new Map<number, SidebarRow[]>());
  const inFlight = useRef(new Set<number>());
  const generation = useRef(0);

  const fetchPage = useCallback(
    (page: number, force = false) => {
      if (!force && (pages.current.has(page) || inFlight.current.has(page))) return;
      const gen = generation.current;
      inFlight.current.add(page);
      const range = { offset: page * PAGE_SIZE, limit: PAGE_SIZE };
      const request = query
        ? call(api, 'conversations:list', { query, ...range }).then(({ items, total }) => ({
            rows: items.map((conversation): SidebarRow => ({ kind: 'conversation', conversation, underFolder: null })),
            total,
          }))
        : call(api, 'sidebar:rows', range);
      void request.then(
        (result) => {
          inFlight.current.delete(page);
          if (gen !== generation.current) return;
          pages.current.set(page, result.rows);
          setTotal(result.total);
          setVersion((v) => v + 1);
        },
        () => inFlight.current.delete(page),
      );
    },
    [api, query],
  );

  useEffect(() => {
    generation.current += 1;
    pages.current = new Map();
    inFlight.current = new Set();
    fetchPage(0, true);
  }, [fetchPage]);

  // Coalesce bursts of changes (e.g. streaming activity) into one refetch per frame.
  const refreshScheduled = useRef(false);
  const refresh = useCallback(() => {
    if (refreshScheduled.current) return;
    refreshScheduled.current = true;
    requestAnimationFrame(() => {
      refreshScheduled.current = false;
      generation.current += 1;
      const loaded = [...pages.current.keys()];
      inFlight.current = new Set();
      for (const page of loaded.length ? loaded : [0]) fetchPage(page, true);
    });
  }, [fetchPage]);
  /** Patches the first loaded page `patch` changes; false when none did. */
  const patchLoaded = useCallback((patch: (rows: SidebarRow[]) => SidebarRow[] | null): boolean => {
    for (const [page, rows] of pages.current) {
      const patched = patch(rows);
      if (!patched) continue;
      pages.current.set(page, patched);
      setVersion((v) => v + 1);
      return true;
    }
    return false;
  }, []);
  useEvent(
    'conversations:changed',
    (change) => {
      // A search refetches: a new title may match, or stop matching.
      const { conversation } = change;
      if (!query && change.kind === 'updated' && conversation && patchLoaded((rows) => patchedPage(rows, conversation)))
        return;
      refresh();
    },
    [refresh, query, patchLoaded],
  );
  // A row not loaded yet reads its badge when its page is fetched.
  // A transition: the open conversation's task header renders the same push at once
  // (flushSync), and React would otherwise render the whole sidebar inside that render.
  useEvent(
    'tasks:changed',
    ({ conversationId, list }) =>
      startTransition(() => void patchLoaded((rows) => badgePatchedPage(rows, conversationId, taskBadge(list?.tasks)))),
    [patchLoaded],
  );
  useEvent('folders:changed', refresh, [refresh]);

  const itemAt = useCallback(
    (index: number) => pages.current.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
    [],
  );
  const ensureRange = useCallback(
    (start: number, end: number) => {
      for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) fetchPage(page);
    },
    [fetchPage],
  );

  return { total, itemAt, ensureRange, version };
}
