// Pages of the task board, fetched as groups scroll into view and dropped once far away,
// so 10,000 lists cost what a screenful does. `tasks:changed` patches the group it names
// in place (no fetch); a list the board did not hold yet is read alone and put on top.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BoardFilter, BoardGroup } from '../../shared/boardContract';
import { listMatches } from '../../shared/boardView';
import { call, useApi, useEvent } from '../api/apiContext';

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

export function useBoardPages(filter: BoardFilter) {
  const api = useApi();
  const [total, setTotal] = useState<number | null>(null);
  const [version, setVersion] = useState(0);
  const [freshCount, setFreshCount] = useState(0);
  const pages = useRef(new Map<number, BoardItem[]>());
  const fresh = useRef<BoardItem[]>([]);
  const inFlight = useRef(new Set<number>());
  const generation = useRef(0);
  const bump = () => setVersion((v) => v + 1);

  /** `restart`: the first page under a new filter, which replaces every page shown so far. */
  const fetchPage = useCallback(
    (page: number, restart = false) => {
      if (!restart && (pages.current.has(page) || inFlight.current.has(page))) return;
      const gen = generation.current;
      inFlight.current.add(page);
      void call(api, 'board:list', { filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE }).then(
        (result) => {
          inFlight.current.delete(page);
          if (gen !== generation.current) return;
          if (restart) {
            pages.current = new Map();
            fresh.current = [];
          }
          const onTop = new Set(fresh.current.map((item) => item.group.conversationId));
          pages.current.set(
            page,
            result.groups.map((group) => ({ group, closed: false, duplicate: onTop.has(group.conversationId) })),
          );
          setTotal(result.total);
          setFreshCount(fresh.current.length);
          bump();
        },
        () => inFlight.current.delete(page),
      );
    },
    [api, filter],
  );

  // The board shown so far stays until the new filter's first page is in: nothing
  // flashes, and a menu open on a group that still matches stays open.
  useEffect(() => {
    generation.current += 1;
    inFlight.current = new Set();
    fetchPage(0, true);
  }, [fetchPage]);

  /** Every loaded item of a conversation (on top and in its page). */
  const itemsOf = useCallback((conversationId: string): BoardItem[] => {
    const found = fresh.current.filter((item) => item.group.conversationId === conversationId);
    for (const items of pages.current.values()) {
      for (const item of items) if (item.group.conversationId === conversationId) found.push(item);
    }
    return found;
  }, []);

  useEvent(
    'tasks:changed',
    ({ conversationId, list }) => {
      const held = itemsOf(conversationId);
      if (held.length) {
        // Patched where it stands: the board does not reorder under the user's pointer.
        for (const item of held) {
          if (list) item.group = { ...item.group, list };
          item.closed = list === null;
        }
        bump();
        return;
      }
      if (
        !list ||
        !listMatches({ title: '', folderId: null, tasks: list.tasks }, { ...filter, text: '', folderId: null })
      ) {
        // Not shown, and its statuses rule it out whatever its title or folder: nothing to read.
        return;
      }
      const gen = generation.current;
      void call(api, 'board:group', { conversationId, filter }).then(
        ({ group }) => {
          if (!group || gen !== generation.current || itemsOf(conversationId).length) return;
          fresh.current = [{ group, closed: false, duplicate: false }, ...fresh.current];
          setFreshCount(fresh.current.length);
          for (const items of pages.current.values()) {
            for (const item of items) if (item.group.conversationId === conversationId) item.duplicate = true;
          }
          bump();
        },
        () => {},
      );
    },
    [itemsOf, api, filter],
  );
  // Folder names as last heard (a group's own, or a folders:changed event).
  const folderNames = useRef(new Map<string, string>());
  const folderOf = (id: string | null, current: BoardGroup['folder']): BoardGroup['folder'] => {
    if (id === null) return null;
    return { id, name: folderNames.current.get(id) ?? (current?.id === id ? current.name : '') };
  };
  useEvent(
    'conversations:changed',
    ({ id, kind, conversation }) => {
      const held = itemsOf(id);
      if (!held.length) return;
      for (const item of held) {
        if (kind === 'deleted') item.closed = true;
        else if (conversation) {
          item.group = {
            ...item.group,
            title: conversation.title,
            folder: folderOf(conversation.folderId, item.group.folder),
          };
        }
      }
      bump();
    },
    [itemsOf],
  );
  useEvent(
    'folders:changed',
    ({ folders }) => {
      folderNames.current = new Map(folders.map((f) => [f.id, f.name]));
      const all = [...fresh.current, ...[...pages.current.values()].flat()];
      for (const item of all) {
        const folder = item.group.folder;
        if (!folder) continue;
        const name = folderNames.current.get(folder.id);
        // A deleted folder moved its conversations out of it.
        item.group = { ...item.group, folder: name === undefined ? null : { id: folder.id, name } };
      }
      bump();
    },
    [],
  );

  const itemAt = useCallback((index: number): BoardItem | undefined => {
    if (index < fresh.current.length) return fresh.current[index];
    const at = index - fresh.current.length;
    return pages.current.get(Math.floor(at / PAGE_SIZE))?.[at % PAGE_SIZE];
  }, []);

  const ensureRange = useCallback(
    (start: number, end: number) => {
      const offset = fresh.current.length;
      const first = Math.floor(Math.max(0, start - offset) / PAGE_SIZE);
      const last = Math.floor(Math.max(0, end - offset) / PAGE_SIZE);
      for (let page = first; page <= last; page++) fetchPage(page);
      if (pages.current.size > KEEP_PAGES) {
        const far = [...pages.current.keys()]
          .filter((page) => page < first - 1 || page > last + 1)
          .sort((a, b) => Math.abs(b - first) - Math.abs(a - first));
        for (const page of far.slice(0, pages.current.size - KEEP_PAGES)) pages.current.delete(page);
      }
    },
    [fetchPage],
  );

  return { count: total === null ? null : total + freshCount, itemAt, ensureRange, version };
}
