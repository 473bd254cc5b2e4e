// Read-only access to every task list of a conversation as stored — lists, tasks, their
// dependencies and events — for exports: SELECTs only, so the command line's read-only
// connection can use it too. (The single writer is taskService.ts.)
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';
import type { EventRow, TaskRow } from './taskTypes';

/** A list with whether it is parked on a hidden branch, and its number among the conversation's lists (1..n). */
export type NumberedListRow = Pick<Row<'task_lists'>, 'id' | 'created_at' | 'closed_at'> & {
  parked: number;
  number: number;
};

export function createTaskListReader(db: Db) {
  const listsOf = db.prepare<[string], NumberedListRow>(
    `SELECT id, created_at, closed_at, parked_on IS NOT NULL AS parked, ROW_NUMBER() OVER (ORDER BY id) AS number
     FROM task_lists WHERE conversation_id = ? ORDER BY id`,
  );
  const withLists = db.prepare<[], { conversation_id: string }>('SELECT DISTINCT conversation_id FROM task_lists');
  const tasksOf = db.prepare<[number], TaskRow>('SELECT * FROM tasks WHERE list_id = ? ORDER BY position, seq');
  const blockersOf = db.prepare<[number], { task_id: number; blocker_seq: number }>(
    `SELECT d.task_id, b.seq AS blocker_seq FROM task_deps d
     JOIN tasks t ON t.id = d.task_id JOIN tasks b ON b.id = d.blocked_by_id
     WHERE t.list_id = ? ORDER BY b.seq`,
  );
  const eventsOf = db.prepare<[number], EventRow>(
    'SELECT id, task_id, at, actor, kind, before, after FROM task_events WHERE list_id = ? ORDER BY id',
  );
  return {
    /** Every list of the conversation, oldest first. */
    lists: (conversationId: string): NumberedListRow[] => listsOf.all(conversationId),
    /** Ids of conversations that have at least one task list. */
    conversationIds: (): string[] => withLists.all().map((r) => r.conversation_id),
    /** The list's tasks in list order. */
    tasks: (listId: number): TaskRow[] => tasksOf.all(listId),
    /** Each dependency of the list's tasks: the waiting task's row id and its blocker's seq, by blocker seq. */
    blockers: (listId: number) => blockersOf.all(listId),
    /** Events of the list and of its tasks (deleted ones too), oldest first. */
    events: (listId: number): EventRow[] => eventsOf.all(listId),
  };
}

export type TaskListReader = ReturnType<typeof createTaskListReader>;
