// Pages of the task board, fetched as groups scroll into view and dropped once far away,
// so 10,000 lists cost what a screenful does. `tasks:changed` patches the group it names
// in place (no fetch); a list the board did not hold yet is read alone and put on top.
// A query of the renderer's cache (`query/`), keyed by the filter: the loaded pages are its state.
import { useCallback, useRef } from 'react';
import type { BoardFilter, BoardGroup } from '../../shared/boardContract';
import { listMatches } from '../../shared/boardView';
import type { StepwiseApi } from '../../shared/ipc';
import { call, useApi } from '../api/apiContext';
import { queryCacheOf, useQuery, type Query } from '../query/useQuery';

/** A screen holds a few groups of ~10 tasks: 30 groups a page is several screens. */
export const PAGE_SIZE = 30;
/** Loaded pages beyond this many are dropped, farthest from the view first. */
const KEEP_PAGES = 12;

export interface BoardItem {
  group: BoardGroup;
  /** The list was closed (or its conversation deleted) while the board was open. */
  closed: boolean;
  /** Also shown on top, as a list that changed after this page's order was read. */
  duplicate: boolean;
}

interface BoardState {
  /** Loaded pages by number (sparse: the ones near the view). */
  pages: Map<number, BoardItem[]>;
  /** Lists read alone after they changed, shown on top. */
  fresh: BoardItem[];
  total: number;
  /** Changes with every state (the virtualizer measures groups again). */
  version: number;
}

interface Page {
  groups: BoardGroup[];
  total: number;
}

let versions = 0;

function readPage(api: StepwiseApi, filter: BoardFilter, page: number): Promise<Page> {
  return call(api, 'board:list', { filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE });
}

function withPage(state: BoardState | undefined, page: number, answer: Page): BoardState {
  const fresh = state?.fresh ?? [];
  const onTop = new Set(fresh.map((item) => item.group.conversationId));
  const items = answer.groups.map((group) => ({ group, closed: false, duplicate: onTop.has(group.conversationId) }));
  return { pages: new Map(state?.pages).set(page, items), fresh, total: answer.total, version: ++versions };
}

/** The state with every item `change` returns a new item for replaced (on top and in its page). */
function changed(state: BoardState, change: (item: BoardItem) => BoardItem | null): BoardState | null {
  let any = false;
  const each = (items: BoardItem[]) =>
    items.map((item) => {
      const next = change(item);
      if (!next) return item;
      any = true;
      return next;
    });
  const pages = new Map([...state.pages].map(([page, items]) => [page, each(items)]));
  const fresh = each(state.fresh);
  return any ? { ...state, pages, fresh, version: ++versions } : null;
}

const holds = (state: BoardState, conversationId: string) =>
  [state.fresh, ...state.pages.values()].some((items) => items.some((i) => i.group.conversationId === conversationId));

function boardPages(filter: BoardFilter): Query<BoardState> {
  return {
    key: `board:list ${JSON.stringify(filter)}`,
    load: (api) => readPage(api, filter, 0).then((answer) => withPage(undefined, 0, answer)),
    follow: (api, control) => {
      // Folder names as last heard (a group's own, or a folders:changed event).
      let folderNames = new Map<string, string>();
      const folderOf = (id: string | null, current: BoardGroup['folder']): BoardGroup['folder'] => {
        if (id === null) return null;
        return { id, name: folderNames.get(id) ?? (current?.id === id ? current.name : '') };
      };
      const patch = (change: (item: BoardItem) => BoardItem | null) => {
        const current = control.current();
        const next = current && changed(current, change);
        if (next) control.set(next);
        return next !== null && next !== undefined;
      };
      const off = [
        api.on('tasks:changed', ({ conversationId, list }) => {
          // Before the first page is in there is nothing to patch: it reads the list as it is.
          if (!control.current()) return;
          // Patched where it stands: the board does not reorder under the user's pointer.
          const held = patch((item) =>
            item.group.conversationId === conversationId
              ? { ...item, group: list ? { ...item.group, list } : item.group, closed: list === null }
              : null,
          );
          if (held) return;
          if (
            !list ||
            !listMatches({ title: '', folderId: null, tasks: list.tasks }, { ...filter, text: '', folderId: null })
          ) {
            // Not shown, and its statuses rule it out whatever its title or folder: nothing to read.
            return;
          }
          void control.extend(call(api, 'board:group', { conversationId, filter }), ({ group }, state) => {
            if (!group || !state || holds(state, conversationId)) return undefined;
            const again = (items: BoardItem[]) =>
              items.map((item) => (item.group.conversationId === conversationId ? { ...item, duplicate: true } : item));
            return {
              ...state,
              pages: new Map([...state.pages].map(([page, items]) => [page, again(items)])),
              fresh: [{ group, closed: false, duplicate: false }, ...state.fresh],
              version: ++versions,
            };
          });
        }),
        api.on('conversations:changed', ({ id, kind, conversation }) => {
          patch((item) => {
            if (item.group.conversationId !== id) return null;
            if (kind === 'deleted') return { ...item, closed: true };
            if (!conversation) return null;
            const folder = folderOf(conversation.folderId, item.group.folder);
            return { ...item, group: { ...item.group, title: conversation.title, folder } };
          });
        }),
        api.on('folders:changed', ({ folders }) => {
          folderNames = new Map(folders.map((f) => [f.id, f.name]));
          patch((item) => {
            const folder = item.group.folder;
            if (!folder) return null;
            const name = folderNames.get(folder.id);
            // A deleted folder moved its conversations out of it.
            return { ...item, group: { ...item.group, folder: name === undefined ? null : { id: folder.id, name } } };
          });
        }),
      ];
      return () => off.forEach((unsubscribe) => unsubscribe());
    },
  };
}

export function useBoardPages(filter: BoardFilter) {
  const api = useApi();
  const pagesQuery = boardPages(filter);
  const { key } = pagesQuery;
  const [state] = useQuery(pagesQuery, null);
  // The board shown so far stays until the new filter's first page is in: nothing
  // flashes, and a menu open on a group that still matches stays open.
  const lastShown = useRef<BoardState | null>(null);
  const shown = state ?? lastShown.current;
  lastShown.current = shown;
  const inFlight = useRef({ key, pages: new Set<number>() });
  if (inFlight.current.key !== key) inFlight.current = { key, pages: new Set() };

  const itemAt = useCallback(
    (index: number): BoardItem | undefined => {
      if (!shown) return undefined;
      if (index < shown.fresh.length) return shown.fresh[index];
      const at = index - shown.fresh.length;
      return shown.pages.get(Math.floor(at / PAGE_SIZE))?.[at % PAGE_SIZE];
    },
    [shown],
  );

  const loadedYet = state !== null;
  const ensureRange = useCallback(
    (start: number, end: number) => {
      const cache = queryCacheOf(api);
      const current = cache.peek<BoardState>(key);
      // The first page comes with the query's own load.
      if (!current) return;
      const offset = current.fresh.length;
      const first = Math.floor(Math.max(0, start - offset) / PAGE_SIZE);
      const last = Math.floor(Math.max(0, end - offset) / PAGE_SIZE);
      const pending = inFlight.current.pages;
      for (let page = first; page <= last; page++) {
        if (current.pages.has(page) || pending.has(page)) continue;
        pending.add(page);
        void cache
          .extend<Page, BoardState>(key, readPage(api, filter, page), (answer, state) => withPage(state, page, answer))
          .then(() => pending.delete(page));
      }
      if (current.pages.size > KEEP_PAGES) {
        const far = [...current.pages.keys()]
          .filter((page) => page < first - 1 || page > last + 1)
          .sort((a, b) => Math.abs(b - first) - Math.abs(a - first));
        const pages = new Map(current.pages);
        for (const page of far.slice(0, current.pages.size - KEEP_PAGES)) pages.delete(page);
        cache.set<BoardState>(key, { ...current, pages, version: ++versions });
      }
    },
    // Runs again once the filter's first page is in: the groups in view may lie beyond it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, key, loadedYet],
  );

  return { count: shown ? shown.total + shown.fresh.length : null, itemAt, ensureRange, version: shown?.version ?? 0 };
}
