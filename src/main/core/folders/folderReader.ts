// Read-only access to folder names (exports; SELECT only).
import type { Db } from '../db/openDatabase';

/** The name of a folder, or null when there is no such folder. */
export function createFolderNameReader(db: Db): (folderId: string) => string | null {
  const nameOf = db.prepare<[string], { name: string }>('SELECT name FROM folders WHERE id = ?');
  return (folderId) => nameOf.get(folderId)?.name ?? null;
}
