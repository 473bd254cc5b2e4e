// Folders in SQLite, and the sidebar's rows: pinned conversations first, then each folder
// (by name) with its conversations unless collapsed, then the conversations in no folder.
// Every segment is read with its own indexed query, so a page costs the same with one
// conversation or fifty thousand.
import { faultPoint } from '../faults/faultPoints';
import { randomUUID } from 'node:crypto';
import type { Folder, SidebarRow } from '../../../shared/folders';
import type { Db } from '../db/openDatabase';
import { AppError, notFound } from '../ipc/dispatcher';

interface FolderRow {
  id: string;
  name: string;
  collapsed: number;
  created_at: number;
  count: number;
}

const toFolder = (row: FolderRow): Folder => ({
  id: row.id,
  name: row.name,
  collapsed: row.collapsed === 1,
  count: row.count,
});

/** A run of rows in sidebar order: a folder header, or `size` conversations read by `read`. */
type Segment =
  | { kind: 'folder'; folder: Folder }
  | {
      kind: 'conversations';
      size: number;
      underFolder: string | null;
      read: (offset: number, limit: number) => string[];
    };

const FOLDERS_SQL = `SELECT f.*, (SELECT COUNT(*) FROM conversations c WHERE c.folder_id = f.id AND c.parent_id IS NULL) AS count
  FROM folders f`;

export function createFolderRepo(db: Db, now: () => number = Date.now) {
  const all = db.prepare<[], FolderRow>(`${FOLDERS_SQL} ORDER BY f.name COLLATE NOCASE, f.id`);
  const byId = db.prepare<[string], FolderRow>(`${FOLDERS_SQL} WHERE f.id = ?`);
  const byName = db.prepare<[string], FolderRow>(`${FOLDERS_SQL} WHERE f.name = ? COLLATE NOCASE`);
  const insert = db.prepare('INSERT INTO folders (id, name, collapsed, created_at) VALUES (?, ?, 0, ?)');
  const setName = db.prepare('UPDATE folders SET name = ? WHERE id = ?');
  const setCollapsed = db.prepare('UPDATE folders SET collapsed = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM folders WHERE id = ?');
  const emptyFolder = db.prepare('UPDATE conversations SET folder_id = NULL WHERE folder_id = ?');
  const membersOf = db.prepare<[string], { id: string }>(
    'SELECT id FROM conversations WHERE folder_id = ? AND parent_id IS NULL ORDER BY pinned DESC, updated_at DESC, id',
  );
  const setFolder = db.prepare('UPDATE conversations SET folder_id = ? WHERE id = ? AND parent_id IS NULL');

  const countPinned = db.prepare<[], { n: number }>(
    'SELECT COUNT(*) AS n FROM conversations WHERE parent_id IS NULL AND pinned = 1',
  );
  const pagePinned = db.prepare<[number, number], { id: string }>(
    'SELECT id FROM conversations WHERE parent_id IS NULL AND pinned = 1 ORDER BY updated_at DESC, id LIMIT ? OFFSET ?',
  );
  const countsByFolder = db.prepare<[], { folder_id: string | null; n: number }>(
    'SELECT folder_id, COUNT(*) AS n FROM conversations WHERE parent_id IS NULL AND pinned = 0 GROUP BY folder_id',
  );
  const pageInFolder = db.prepare<[string, number, number], { id: string }>(
    'SELECT id FROM conversations WHERE parent_id IS NULL AND pinned = 0 AND folder_id = ? ORDER BY updated_at DESC, id LIMIT ? OFFSET ?',
  );
  const pageUnfiled = db.prepare<[number, number], { id: string }>(
    'SELECT id FROM conversations WHERE parent_id IS NULL AND pinned = 0 AND folder_id IS NULL ORDER BY updated_at DESC, id LIMIT ? OFFSET ?',
  );

  function mustGet(id: string): Folder {
    const row = byId.get(id);
    if (!row) throw notFound(`Folder ${id}`);
    return toFolder(row);
  }

  function nameFree(name: string, except?: string) {
    const other = byName.get(name);
    if (other && other.id !== except)
      throw new AppError('conflict', `A folder named “${other.name}” already exists. Choose another name.`);
  }

  function segments(): Segment[] {
    const unpinned = new Map(countsByFolder.all().map((row) => [row.folder_id, row.n]));
    const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
    const list: Segment[] = [
      {
        kind: 'conversations',
        size: countPinned.get()!.n,
        underFolder: null,
        read: (offset, limit) => ids(pagePinned.all(limit, offset)),
      },
    ];
    for (const folder of all.all().map(toFolder)) {
      list.push({ kind: 'folder', folder });
      if (folder.collapsed) continue;
      list.push({
        kind: 'conversations',
        size: unpinned.get(folder.id) ?? 0,
        underFolder: folder.id,
        read: (offset, limit) => ids(pageInFolder.all(folder.id, limit, offset)),
      });
    }
    list.push({
      kind: 'conversations',
      size: unpinned.get(null) ?? 0,
      underFolder: null,
      read: (offset, limit) => ids(pageUnfiled.all(limit, offset)),
    });
    return list;
  }

  return {
    list: (): Folder[] => all.all().map(toFolder),
    get: mustGet,
    create(name: string): Folder {
      nameFree(name);
      const id = randomUUID();
      insert.run(id, name, now());
      return mustGet(id);
    },
    rename(id: string, name: string): Folder {
      mustGet(id);
      nameFree(name, id);
      setName.run(name, id);
      return mustGet(id);
    },
    setCollapsed(id: string, collapsed: boolean): Folder {
      mustGet(id);
      setCollapsed.run(collapsed ? 1 : 0, id);
      return mustGet(id);
    },
    /** Deletes the folder; its conversations stay, in no folder. Returns their ids. */
    delete(id: string): string[] {
      mustGet(id);
      faultPoint('folder:before-delete');
      const moved = db.transaction(() => {
        const members = membersOf.all(id).map((row) => row.id);
        emptyFolder.run(id);
        faultPoint('folder:in-delete');
        remove.run(id);
        return members;
      })();
      faultPoint('folder:after-delete');
      return moved;
    },
    /** Ids of the folder's conversations, pinned first, then newest first. */
    members(id: string): string[] {
      mustGet(id);
      return membersOf.all(id).map((row) => row.id);
    },
    /** Moves a conversation into a folder (null: out of any); false when there is no such conversation. */
    move(conversationId: string, folderId: string | null): boolean {
      if (folderId !== null) mustGet(folderId);
      return setFolder.run(folderId, conversationId).changes > 0;
    },
    /** The folder of that name (any case), made if there is none: how an import files a conversation. */
    ensure(name: string): Folder {
      const found = byName.get(name);
      if (found) return toFolder(found);
      const id = randomUUID();
      insert.run(id, name, now());
      return mustGet(id);
    },
    /**
     * A page of sidebar rows. `summaries` turns conversation ids into rows with their badges;
     * `total` counts every row, headers included.
     */
    rows<T>(
      offset: number,
      limit: number,
      summaries: (ids: string[]) => T[],
    ): { rows: Array<SidebarRowOf<T>>; total: number } {
      const rows: Array<SidebarRowOf<T>> = [];
      let start = 0;
      for (const segment of segments()) {
        const size = segment.kind === 'folder' ? 1 : segment.size;
        const from = Math.max(offset, start);
        const to = Math.min(offset + limit, start + size);
        if (from < to) {
          if (segment.kind === 'folder') rows.push({ kind: 'folder', folder: segment.folder });
          else {
            const { underFolder } = segment;
            for (const conversation of summaries(segment.read(from - start, to - from))) {
              rows.push({ kind: 'conversation', conversation, underFolder });
            }
          }
        }
        start += size;
      }
      return { rows, total: start };
    },
  };
}

type SidebarRowOf<T> =
  | Extract<SidebarRow, { kind: 'folder' }>
  | { kind: 'conversation'; conversation: T; underFolder: string | null };

export type FolderRepo = ReturnType<typeof createFolderRepo>;
