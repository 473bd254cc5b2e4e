// The roots a conversation's folder adds for the servers it uses, the calls that read and
// set a folder's list, and telling servers their roots changed (mcpFolderRoots.ts keeps the rows).
import type { HandlersFor } from '../../../shared/contract';
import type { mcpRootsCalls } from '../../../shared/mcpRootsContract';
import type { Db } from '../db/openDatabase';
import { AppError } from '../ipc/dispatcher';
import { createFolderRoots } from './mcpFolderRoots';
import type { Root } from './mcpRoots';
import type { McpServer } from './mcpServer';

export function createConversationRoots(db: Db | undefined, servers: () => Iterable<McpServer>) {
  const folderRoots = db ? createFolderRoots(db) : null;

  function forConversation(conversationId: string | undefined): Root[] {
    return conversationId && folderRoots ? folderRoots.forConversation(conversationId) : [];
  }

  /** Tells the given servers (all when none is given) to ask for their roots again. */
  function changed(...which: Array<McpServer | undefined>) {
    for (const server of which.length ? which : servers())
      void server
        ?.live()
        ?.features.rootsChanged()
        .catch(() => undefined);
  }

  const handlers: HandlersFor<typeof mcpRootsCalls> = {
    'mcp:folderRoots': ({ folderId }) => {
      if (!folderRoots) throw new AppError('unavailable', 'Folder roots are not kept here.');
      return { paths: folderRoots.get(folderId) };
    },
    'mcp:setFolderRoots': ({ folderId, paths }) => {
      if (!folderRoots) throw new AppError('unavailable', 'Folder roots are not kept here.');
      const saved = folderRoots.set(folderId, paths);
      changed();
      return { paths: saved };
    },
  };

  return { forConversation, changed, handlers };
}
