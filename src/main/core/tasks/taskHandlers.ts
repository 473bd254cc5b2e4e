// Contract handlers for the task header: the user reads and edits the open list. Every
// edit is recorded with actor `user`; the model hears about it on its next request.
import { AppError, notFound } from '../ipc/dispatcher';
import type { ConversationRepo } from '../conversations/conversationRepo';
import { deleteOp, reorderOp, restoreOp, userAddOp, userUpdateOp } from './taskOps';
import { USER, type Op, type TaskService } from './taskService';
import type { HandlersFor } from '../../../shared/contract';
import type { taskCalls } from '../../../shared/tasksContract';

type TaskCalls = HandlersFor<typeof taskCalls>;

export function taskHandlers(deps: { tasks: TaskService; conversations: Pick<ConversationRepo, 'get'> }): TaskCalls {
  const { tasks, conversations } = deps;

  function mustExist(conversationId: string) {
    if (!conversations.get(conversationId)) throw notFound(`Conversation ${conversationId}`);
  }

  /** Runs a user edit; a rule the edit breaks comes back as an error the header shows. */
  function edit<T>(conversationId: string, op: Op<T>, needsList = true) {
    mustExist(conversationId);
    if (needsList && !tasks.get(conversationId))
      throw new AppError('not_found', 'This conversation has no open task list.');
    const result = tasks.change(conversationId, USER, op);
    if (!result.ok) {
      throw new AppError(/ not found \(/.test(result.error) ? 'not_found' : 'conflict', result.error);
    }
    return { list: result.value.list };
  }

  return {
    'tasks:get': ({ conversationId }) => {
      mustExist(conversationId);
      return { list: tasks.get(conversationId) };
    },
    'tasks:update': ({ conversationId, taskId, patch }) => edit(conversationId, userUpdateOp(taskId, patch)),
    // Adding to a conversation without a list starts one.
    'tasks:add': ({ conversationId, title }) => edit(conversationId, userAddOp(title, USER), false),
    'tasks:delete': ({ conversationId, taskId }) => edit(conversationId, deleteOp(taskId)),
    // Undo of a delete; with no list open (the last task was deleted) it starts one.
    'tasks:restore': ({ conversationId, ...restored }) => edit(conversationId, restoreOp(restored), false),
    'tasks:reorder': ({ conversationId, order }) => edit(conversationId, reorderOp(order)),
    'tasks:clear': ({ conversationId }) => {
      mustExist(conversationId);
      tasks.close(conversationId, USER, 'clear-tasks');
      return { list: null };
    },
  };
}
