// The task board (docs/task-lists.md, "Task board"): every open task list across
// conversations, read a page at a time. Its edits are the header's `tasks:*` calls.
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { boardHandlers } from './boardHandlers';
import { createBoardQuery } from './boardQuery';

export interface BoardModuleDeps {
  db: Db;
  bus: EventBus;
  conversations: Pick<ConversationRepo, 'get'>;
}

export function createBoard(deps: BoardModuleDeps) {
  const { db, bus, conversations } = deps;
  // Which lists match changes with the lists, the conversations (titles) and the folders.
  const board = createBoardQuery(db, {
    onChange: (listener) => {
      const off = [
        bus.on('tasks:changed', listener),
        bus.on('conversations:changed', listener),
        bus.on('folders:changed', listener),
      ];
      return () => off.forEach((unsubscribe) => unsubscribe());
    },
  });
  return {
    handlers: boardHandlers({ board, conversations }),
    close(): void {
      board.close();
    },
  };
}
