// Sidebar folders: the contract calls to make, rename, collapse and delete them, to move a
// conversation in or out, and the sidebar's rows (folders with their conversations).
// createCore composes it; the folder export is delivered by the export handlers.
import type { Db } from '../db/openDatabase';
import type { ConversationRepo } from '../conversations/conversationRepo';
import { notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import { createFolderRepo } from './folderRepo';
import type { HandlersFor } from '../../../shared/contract';
import type { folderCalls } from '../../../shared/foldersContract';

type FolderCalls = HandlersFor<typeof folderCalls>;

export function createFolders(deps: { db: Db; bus: EventBus; conversations: ConversationRepo; now: () => number }) {
  const { bus, conversations } = deps;
  const folders = createFolderRepo(deps.db, deps.now);

  function changed() {
    bus.emit('folders:changed', { folders: folders.list() });
  }

  const handlers: FolderCalls = {
    'folders:list': () => folders.list(),
    'folders:create': ({ name }) => {
      const folder = folders.create(name);
      changed();
      return folder;
    },
    'folders:rename': ({ id, name }) => {
      const folder = folders.rename(id, name);
      changed();
      return folder;
    },
    'folders:setCollapsed': ({ id, collapsed }) => {
      const folder = folders.setCollapsed(id, collapsed);
      changed();
      return folder;
    },
    'folders:delete': ({ id }) => {
      const moved = folders.delete(id);
      changed();
      for (const conversationId of moved) {
        bus.emit('conversations:changed', {
          id: conversationId,
          kind: 'updated',
          conversation: conversations.summary(conversationId) ?? null,
        });
      }
      return { id, moved: moved.length };
    },
    'conversations:setFolder': ({ id, folderId }) => {
      if (!folders.move(id, folderId)) throw notFound(`Conversation ${id}`);
      bus.emit('conversations:changed', { id, kind: 'updated', conversation: conversations.summary(id) ?? null });
      changed();
      return conversations.get(id)!;
    },
    'sidebar:rows': ({ offset, limit }) => folders.rows(offset, limit, (ids) => conversations.summaries(ids)),
  };

  return { ...folders, handlers };
}
