// A conversation's task list as the user edits it in the header: this feature's part of
// the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { RestoredTask, TaskList, TaskTitle, UserTaskPatch } from './tasks';

const ListAnswer = z.object({ list: TaskList.nullable() });

export const taskCalls = {
  /** The conversation's open task list (null when it has none). */
  'tasks:get': call(z.strictObject({ conversationId: ConversationId }), ListAnswer),
  'tasks:update': call(
    z.strictObject({ conversationId: ConversationId, taskId: z.number().int(), patch: UserTaskPatch }),
    ListAnswer,
  ),
  'tasks:add': call(z.strictObject({ conversationId: ConversationId, title: TaskTitle }), ListAnswer),
  'tasks:delete': call(z.strictObject({ conversationId: ConversationId, taskId: z.number().int() }), ListAnswer),
  /** Undo of tasks:delete: the deleted task back at its place, with its dependencies. */
  'tasks:restore': call(RestoredTask.extend({ conversationId: ConversationId }), ListAnswer),
  /** New order of the open list, as task ids, first to last. */
  'tasks:reorder': call(
    z.strictObject({ conversationId: ConversationId, order: z.array(z.number().int()).max(1000) }),
    ListAnswer,
  ),
  /** Closes the open list (kept in history). */
  'tasks:clear': call(z.strictObject({ conversationId: ConversationId }), ListAnswer),
} as const;

export const taskEvents = {
  /** A task list changed (any actor). `list` is the open list, or null once closed. */
  'tasks:changed': z.object({ conversationId: ConversationId, list: TaskList.nullable() }),
} as const;
