// Pages of the conversation list, fetched as rows scroll into view, so the sidebar
// stays instant with tens of thousands of conversations. Without a search the rows are
// the sidebar's (folders with their conversations); with one, the matching conversations.
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { SidebarRow } from '../../shared/folders';
import type { ConversationSummary } from '../../shared/domain';
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
  // Conversations created while a search is shown lead its results (the user just started
  // one and expects to see it), until a result page lists them itself or the search changes.
  const created = useRef<ConversationSummary[]>([]);
  const [leading, setLeading] = useState(0);
  const setCreated = useCallback((next: ConversationSummary[]) => {
    created.current = next;
    setLeading(next.length);
  }, []);

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
          const listed = new Set(result.rows.map((row) => row.kind === 'conversation' && row.conversation.id));
          setCreated(created.current.filter((c) => !listed.has(c.id)));
          pages.current.set(page, result.rows);
          setTotal(result.total);
          setVersion((v) => v + 1);
        },
        () => inFlight.current.delete(page),
      );
    },
    [api, query, setCreated],
  );

  useEffect(() => {
    generation.current += 1;
    pages.current = new Map();
    inFlight.current = new Set();
    created.current = []; // the count follows with the first page
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
      if (query) setCreated(createdAfter(created.current, change));
      if (!query && change.kind === 'updated' && conversation && patchLoaded((rows) => patchedPage(rows, conversation)))
        return;
      refresh();
    },
    [refresh, query, patchLoaded, setCreated],
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

  const itemAt = useCallback((index: number): SidebarRow | undefined => {
    const lead = created.current;
    if (index < lead.length) return { kind: 'conversation', conversation: lead[index], underFolder: null };
    const at = index - lead.length;
    return pages.current.get(Math.floor(at / PAGE_SIZE))?.[at % PAGE_SIZE];
  }, []);
  const ensureRange = useCallback(
    (start: number, end: number) => {
      const lead = created.current.length;
      const [from, to] = [Math.max(0, start - lead), Math.max(0, end - lead)];
      for (let page = Math.floor(from / PAGE_SIZE); page <= Math.floor(to / PAGE_SIZE); page++) fetchPage(page);
    },
    [fetchPage],
  );

  return { total: total === null ? null : total + leading, itemAt, ensureRange, version };
}

/** The conversations created during a search, after `change`: a new one first, a deleted one gone, a renamed one renamed. */
function createdAfter(
  lead: ConversationSummary[],
  change: { id: string; kind: 'created' | 'updated' | 'deleted'; conversation: ConversationSummary | null },
): ConversationSummary[] {
  const others = lead.filter((c) => c.id !== change.id);
  if (change.kind === 'deleted' || !change.conversation) return others;
  if (change.kind === 'created') return [change.conversation, ...others];
  return lead.map((c) => (c.id === change.id ? change.conversation! : c));
}
