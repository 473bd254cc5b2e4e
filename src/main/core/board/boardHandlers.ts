// Contract handlers of the task board's reads. Its edits are the header's `tasks:*` calls.
import { notFound } from '../ipc/dispatcher';
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { BoardQuery } from './boardQuery';
import type { HandlersFor } from '../../../shared/contract';
import type { boardCalls } from '../../../shared/boardContract';

type BoardCalls = HandlersFor<typeof boardCalls>;

export function boardHandlers(deps: { board: BoardQuery; conversations: Pick<ConversationRepo, 'get'> }): BoardCalls {
  const { board, conversations } = deps;
  return {
    'board:list': ({ filter, offset, limit }) => board.page(filter, offset, limit),
    'board:group': ({ conversationId, filter }) => {
      if (!conversations.get(conversationId)) throw notFound(`Conversation ${conversationId}`);
      return { group: board.group(conversationId, filter) };
    },
  };
}
