// Pages of the conversation list, fetched as rows scroll into view, so the sidebar
// stays instant with tens of thousands of conversations. Without a search the rows are
// the sidebar's (folders with their conversations); with one, the matching conversations.
// A query of the renderer's cache (`query/`): the loaded pages are its state.
import { useCallback, useRef } from 'react';
import type { SidebarRow } from '../../shared/folders';
import type { ConversationSummary } from '../../shared/domain';
import type { StepwiseApi } from '../../shared/ipc';
import { call, useApi } from '../api/apiContext';
import { taskBadge } from '../../shared/taskProgress';
import { paced } from '../query/pace';
import { queryCacheOf, useQuery, type Query } from '../query/useQuery';
import { badgePatchedPage, patchedPage } from './sidebarPatch';

export const PAGE_SIZE = 100;

interface PagesState {
  /** Loaded pages by number (sparse: the ones scrolled to). */
  pages: Map<number, SidebarRow[]>;
  total: number;
  /**
   * Conversations created while a search is shown lead its results (the user just started
   * one and expects to see it), until a result page lists them itself or the search changes.
   */
  created: ConversationSummary[];
  /** Changes with every state (the virtualizer measures rows again). */
  version: number;
}

interface Page {
  rows: SidebarRow[];
  total: number;
}

let versions = 0;

function readPage(api: StepwiseApi, query: string, page: number): Promise<Page> {
  const range = { offset: page * PAGE_SIZE, limit: PAGE_SIZE };
  if (!query) return call(api, 'sidebar:rows', range);
  return call(api, 'conversations:list', { query, ...range }).then(({ items, total }) => ({
    rows: items.map((conversation): SidebarRow => ({ kind: 'conversation', conversation, underFolder: null })),
    total,
  }));
}

/** The created conversations a page does not list itself. */
function unlisted(created: ConversationSummary[], rows: SidebarRow[]): ConversationSummary[] {
  const listed = new Set(rows.map((row) => row.kind === 'conversation' && row.conversation.id));
  return created.filter((c) => !listed.has(c.id));
}

function withPage(state: PagesState | undefined, page: number, answer: Page): PagesState {
  const pages = new Map(state?.pages);
  pages.set(page, answer.rows);
  return { pages, total: answer.total, created: unlisted(state?.created ?? [], answer.rows), version: ++versions };
}

/** The state with the first loaded page that `patch` changes patched; null when none did. */
function patched(state: PagesState, patch: (rows: SidebarRow[]) => SidebarRow[] | null): PagesState | null {
  for (const [page, rows] of state.pages) {
    const next = patch(rows);
    if (next) return { ...state, pages: new Map(state.pages).set(page, next), version: ++versions };
  }
  return null;
}

function conversationPages(query: string): Query<PagesState> {
  return {
    key: `sidebar pages ${JSON.stringify(query)}`,
    // A reload reads again every page loaded so far (the first one when none is).
    load: async (api, current) => {
      const numbers = current?.pages.size ? [...current.pages.keys()] : [0];
      const answers = await Promise.all(numbers.map((page) => readPage(api, query, page)));
      return answers.reduce<PagesState>((state, answer, i) => withPage(state, numbers[i], answer), {
        pages: new Map(),
        total: 0,
        created: current?.created ?? [],
        version: 0,
      });
    },
    // Conversations created while the pages loaded still lead a search.
    merge: (answer, current) => ({
      ...answer,
      created: [...answer.pages.values()].reduce(unlisted, current.created),
    }),
    follow: (api, control) => {
      // Bursts of changes (e.g. streaming activity) coalesce into one reload a frame.
      let frame = 0;
      const refresh = () => {
        frame ||= requestAnimationFrame(() => {
          frame = 0;
          control.reload();
        });
      };
      const off = [
        api.on('conversations:changed', (change) => {
          const current = control.current();
          if (!current) return refresh();
          const { conversation } = change;
          // A search reads again: a new title may match, or stop matching.
          if (query) control.set({ ...current, created: createdAfter(current.created, change), version: ++versions });
          const patch =
            !query &&
            change.kind === 'updated' &&
            conversation &&
            patched(current, (rows) => patchedPage(rows, conversation));
          if (patch) control.set(patch);
          else refresh();
        }),
        // A row not loaded yet reads its badge when its page is fetched.
        api.on('tasks:changed', ({ conversationId, list }) => {
          const current = control.current();
          const patch =
            current && patched(current, (rows) => badgePatchedPage(rows, conversationId, taskBadge(list?.tasks)));
          if (patch) control.set(patch);
        }),
        api.on('folders:changed', refresh),
      ];
      return () => {
        cancelAnimationFrame(frame);
        off.forEach((unsubscribe) => unsubscribe());
      };
    },
  };
}

/**
 * The sidebar renders its changes at the next frame: the open conversation's task header
 * renders the same `tasks:changed` push at once (flushSync), and would otherwise render
 * the whole sidebar inside that render.
 */
const sidebarPace = paced<PagesState>();

export function useConversationPages(query: string) {
  const api = useApi();
  const pagesQuery = conversationPages(query);
  const { key } = pagesQuery;
  const [state] = useQuery(pagesQuery, null, undefined, sidebarPace);
  // Until a new search's first page is in, the count shown so far stays (rows show as placeholders).
  const lastTotal = useRef<number | null>(null);
  const total = state ? state.total + state.created.length : lastTotal.current;
  lastTotal.current = total;
  const inFlight = useRef({ key, pages: new Set<number>() });
  if (inFlight.current.key !== key) inFlight.current = { key, pages: new Set() };

  const itemAt = useCallback(
    (index: number): SidebarRow | undefined => {
      if (!state) return undefined;
      const lead = state.created;
      if (index < lead.length) return { kind: 'conversation', conversation: lead[index], underFolder: null };
      const at = index - lead.length;
      return state.pages.get(Math.floor(at / PAGE_SIZE))?.[at % PAGE_SIZE];
    },
    [state],
  );
  const loadedYet = state !== null;
  const ensureRange = useCallback(
    (start: number, end: number) => {
      const cache = queryCacheOf(api);
      const current = cache.peek<PagesState>(key);
      // The first page comes with the query's own load.
      if (!current) return;
      const lead = current.created.length;
      const [from, to] = [Math.max(0, start - lead), Math.max(0, end - lead)];
      const pending = inFlight.current.pages;
      for (let page = Math.floor(from / PAGE_SIZE); page <= Math.floor(to / PAGE_SIZE); page++) {
        if (current.pages.has(page) || pending.has(page)) continue;
        pending.add(page);
        void cache
          .extend<Page, PagesState>(key, readPage(api, query, page), (answer, state) => withPage(state, page, answer))
          .then(() => pending.delete(page));
      }
    },
    // Runs again once the first page is in: the rows in view may lie beyond it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, key, query, loadedYet],
  );

  return { total, itemAt, ensureRange, version: state?.version ?? 0 };
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
