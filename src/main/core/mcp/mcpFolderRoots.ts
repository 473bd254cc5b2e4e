// "Folders the tools may use" of a sidebar folder (`folder_roots`): absolute paths sent to
// MCP servers as roots for the conversations in that folder, after the global ones
// (Settings → Tools (MCP)). A server's roots are those of the conversation that last used
// it, so servers are told (`notifications/roots/list_changed`) when a folder's list
// changes, a conversation moves between folders, or another conversation starts using them.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';
import { notFound } from '../ipc/dispatcher';
import type { Root } from './mcpRoots';

export function createFolderRoots(db: Db) {
  const list = db.prepare<[string], Pick<Row<'folder_roots'>, 'path'>>(
    'SELECT path FROM folder_roots WHERE folder_id = ? ORDER BY position',
  );
  const ofConversation = db.prepare<[string], Pick<Row<'folder_roots'>, 'path'>>(
    `SELECT r.path FROM conversations c JOIN folder_roots r ON r.folder_id = c.folder_id
     WHERE c.id = ? ORDER BY r.position`,
  );
  const folderExists = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM folders WHERE id = ?');
  const clear = db.prepare<[string]>('DELETE FROM folder_roots WHERE folder_id = ?');
  const insert = db.prepare<[string, number, string]>(
    'INSERT INTO folder_roots (folder_id, position, path) VALUES (?, ?, ?)',
  );

  function mustExist(folderId: string) {
    if (!folderExists.get(folderId)) throw notFound(`Folder ${folderId}`);
  }

  return {
    get(folderId: string): string[] {
      mustExist(folderId);
      return list.all(folderId).map((r) => r.path);
    },
    /** Replaces the folder's list (duplicates dropped), in one transaction. */
    set(folderId: string, paths: string[]): string[] {
      mustExist(folderId);
      const unique = [...new Set(paths)];
      db.transaction(() => {
        clear.run(folderId);
        unique.forEach((p, i) => insert.run(folderId, i, p));
      })();
      return unique;
    },
    /** The roots of a conversation's folder (none when it is in no folder). */
    forConversation(conversationId: string): Root[] {
      return ofConversation.all(conversationId).map((r) => ({
        uri: pathToFileURL(r.path).href,
        name: path.basename(r.path) || r.path,
      }));
    },
  };
}

export type FolderRoots = ReturnType<typeof createFolderRoots>;
