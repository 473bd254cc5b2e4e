// The task board (docs/task-lists.md, "Task board"): every open task list across
// conversations, read a page at a time. Its edits are the header's `tasks:*` calls.
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { DisposableStore } from '../../../shared/event';
import { boardHandlers } from './boardHandlers';
import { createBoardQuery } from './boardQuery';

export interface BoardModuleDeps {
  db: Db;
  bus: EventBus;
  conversations: Pick<ConversationRepo, 'get'>;
}

/** Events after which the board's counts are read again: the lists, the titles, the folders. */
const BOARD_CHANGES = ['tasks:changed', 'conversations:changed', 'folders:changed'] as const;

export function createBoard(deps: BoardModuleDeps) {
  const { db, bus, conversations } = deps;
  const disposables = new DisposableStore();
  const board = createBoardQuery(db, {
    onChange: (listener, store) => {
      const watching = store.add(new DisposableStore());
      for (const event of BOARD_CHANGES) bus.on(event, () => listener(), watching);
      return watching;
    },
  });
  disposables.add({ dispose: () => board.close() });
  return {
    handlers: boardHandlers({ board, conversations }),
    dispose: () => disposables.dispose(),
  };
}
