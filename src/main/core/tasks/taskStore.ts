// Task lists in SQLite: rows in, domain objects out. No rules and no transactions here;
// the service wraps every mutation in one transaction and decides what to write.
import type { TaskList } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import { draftFrom, mirror, taskListFrom } from './taskRows';
import type { DraftTask, EventRow, ListInfo, ListRows, TaskRow } from './taskTypes';
import type { Row } from '../db/tables';

type ListRow = Row<'task_lists'>;

const toInfo = (row: ListRow): ListInfo => ({
  id: row.id,
  conversationId: row.conversation_id,
  createdAt: row.created_at,
  closedAt: row.closed_at,
});

export function createTaskStore(db: Db) {
  const openList = db.prepare<[string], ListRow>(
    'SELECT * FROM task_lists WHERE conversation_id = ? AND closed_at IS NULL',
  );
  const listById = db.prepare<[number], ListRow>('SELECT * FROM task_lists WHERE id = ?');
  const listsOf = db.prepare<[string], ListRow>('SELECT * FROM task_lists WHERE conversation_id = ? ORDER BY id');
  const tasksOf = db.prepare<[number], TaskRow>('SELECT * FROM tasks WHERE list_id = ? ORDER BY position, seq');
  const depsOf = db.prepare<[number], { task_id: number; blocked_by_id: number }>(
    'SELECT d.task_id, d.blocked_by_id FROM task_deps d JOIN tasks t ON t.id = d.task_id WHERE t.list_id = ?',
  );
  const insertList = db.prepare('INSERT INTO task_lists (conversation_id, created_at, closed_at) VALUES (?, ?, ?)');
  const closeList = db.prepare('UPDATE task_lists SET closed_at = ? WHERE id = ? AND closed_at IS NULL');
  const insertTask = db.prepare(
    `INSERT INTO tasks (list_id, seq, title, description, active_form, status, owner, position, created_at, updated_at, completed_at, last_message_id, changed_by)
     VALUES (@list_id, @seq, @title, @description, @active_form, @status, @owner, @position, @created_at, @updated_at, @completed_at, @last_message_id, @changed_by)`,
  );
  // Positional parameters: the statement runs for every changed task, and binding by name costs more.
  const updateTask = db.prepare<
    [
      string,
      string,
      string,
      string,
      string,
      number,
      number | null,
      string | null,
      string | null,
      string,
      number,
      number,
    ]
  >(
    `UPDATE tasks SET title = ?, description = ?, active_form = ?, status = ?, owner = ?,
       updated_at = ?, last_message_id = ?, handed_back = ?, changed_by = ?,
       completed_at = CASE WHEN ? = 'completed' THEN COALESCE(completed_at, ?) END
     WHERE id = ?`,
  );
  const setPosition = db.prepare('UPDATE tasks SET position = ? WHERE id = ? AND position <> ?');
  const setChangedBy = db.prepare('UPDATE tasks SET changed_by = ? WHERE id = ? AND changed_by IS NOT ?');
  // One statement for any number of conversations (a sidebar page, or one changed row).
  const badgeRows = db.prepare<[string], { conversation_id: string; done: number; total: number }>(
    `SELECT l.conversation_id, SUM(t.status = 'completed') AS done, SUM(t.status <> 'cancelled') AS total
     FROM task_lists l JOIN tasks t ON t.list_id = l.id
     WHERE l.closed_at IS NULL AND l.conversation_id IN (SELECT value FROM json_each(?))
     GROUP BY l.conversation_id`,
  );
  const deleteTask = db.prepare('DELETE FROM tasks WHERE id = ?');
  const clearDeps = db.prepare('DELETE FROM task_deps WHERE task_id = ?');
  const insertDep = db.prepare('INSERT OR IGNORE INTO task_deps (task_id, blocked_by_id) VALUES (?, ?)');
  const insertEvent = db.prepare(
    'INSERT INTO task_events (list_id, task_id, at, actor, kind, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const latestMessage = db.prepare<[string], { id: number | null }>(
    'SELECT MAX(id) AS id FROM messages WHERE conversation_id = ?',
  );
  // Walks the conversation's index from its newest message and stops at the first of
  // the role; MAX(id) with a role filter would read every message of the conversation.
  const latestOfRole = db.prepare<[string, string], { id: number | null }>(
    'SELECT id FROM messages WHERE conversation_id = ? AND role = ? ORDER BY id DESC LIMIT 1',
  );
  const eventsOfList = db.prepare<[number], EventRow>('SELECT * FROM task_events WHERE list_id = ? ORDER BY id');
  const eventsAfter = db.prepare<[string, number], EventRow>(
    `SELECT e.* FROM task_events e JOIN task_lists l ON l.id = e.list_id
     WHERE l.conversation_id = ? AND e.id > ? ORDER BY e.id`,
  );
  const noticeMark = db.prepare<[string], { event_id: number }>(
    'SELECT event_id FROM task_notice_marks WHERE conversation_id = ?',
  );
  const setNoticeMark = db.prepare(
    `INSERT INTO task_notice_marks (conversation_id, event_id) VALUES (?, ?)
     ON CONFLICT (conversation_id) DO UPDATE SET event_id = MAX(event_id, excluded.event_id)`,
  );
  const userEdits = db.prepare<[number], { edits: string }>('SELECT edits FROM task_user_edits WHERE list_id = ?');
  const putUserEdits = db.prepare(
    'INSERT INTO task_user_edits (list_id, edits) VALUES (?, ?) ON CONFLICT (list_id) DO UPDATE SET edits = excluded.edits',
  );
  const dropUserEdits = db.prepare('DELETE FROM task_user_edits WHERE list_id = ?');
  const lastEventId = db.prepare<[string], { id: number | null }>(
    'SELECT MAX(e.id) AS id FROM task_events e JOIN task_lists l ON l.id = e.list_id WHERE l.conversation_id = ?',
  );

  function loadRows(listId: number): ListRows {
    const blockers = new Map<number, number[]>();
    for (const dep of depsOf.all(listId))
      blockers.set(dep.task_id, [...(blockers.get(dep.task_id) ?? []), dep.blocked_by_id]);
    return { rows: tasksOf.all(listId), blockers };
  }

  const listOf = (row: ListRow): TaskList => taskListFrom(toInfo(row), loadRows(row.id));

  return {
    openList(conversationId: string): ListInfo | null {
      const row = openList.get(conversationId);
      return row ? toInfo(row) : null;
    },
    /** The open list as main and renderer see it. */
    openTaskList(conversationId: string): TaskList | null {
      const row = openList.get(conversationId);
      return row ? listOf(row) : null;
    },
    taskList(listId: number): TaskList | null {
      const row = listById.get(listId);
      return row ? listOf(row) : null;
    },
    /** Every list of a conversation, oldest first, closed ones included (history, export). */
    history(conversationId: string): TaskList[] {
      return listsOf.all(conversationId).map(listOf);
    },
    draft: (listId: number): DraftTask[] => draftFrom(loadRows(listId)),
    /**
     * A list's rows read once, for a change to edit in memory alongside its writes (pass
     * it to the write methods): the list after the change is then built without reading
     * it again (`taskListFrom`).
     */
    rows: loadRows,
    /** A list row; `closedAt` is set only by an import of a closed list. */
    createList(conversationId: string, at: number, closedAt: number | null = null): number {
      return Number(insertList.run(conversationId, at, closedAt).lastInsertRowid);
    },
    closeList(listId: number, at: number): boolean {
      return closeList.run(at, listId).changes > 0;
    },
    insertTask(listId: number, task: DraftTask, position: number, at: number, rows?: ListRows): number {
      return this.insertTaskRow(
        {
          list_id: listId,
          seq: task.id,
          title: task.title,
          description: task.description,
          active_form: task.activeForm,
          status: task.status,
          owner: task.owner,
          position,
          created_at: at,
          updated_at: at,
          completed_at: task.status === 'completed' ? at : null,
          last_message_id: task.lastMessageId,
          changed_by: task.changedBy ?? null,
        },
        rows,
      );
    },
    /** A task row with every column given (an import keeps its original times); none is handed back. */
    insertTaskRow(
      row: Omit<TaskRow, 'id' | 'handed_back' | 'changed_by'> & Partial<Pick<TaskRow, 'changed_by'>>,
      rows?: ListRows,
    ): number {
      const full = { changed_by: null, ...row };
      const id = Number(insertTask.run(full).lastInsertRowid);
      if (rows) mirror.insert(rows, { ...full, handed_back: null, id });
      return id;
    },
    /** Keeps completed_at while a task stays completed; clears it when it is reopened. */
    updateTask(task: DraftTask & { rowId: number }, at: number, rows?: ListRows): void {
      if (rows) mirror.update(rows, task, at);
      const { title, description, activeForm, status, owner, lastMessageId, handedBack, changedBy } = task;
      updateTask.run(
        title,
        description,
        activeForm,
        status,
        owner,
        at,
        lastMessageId,
        handedBack ?? null,
        changedBy ?? null,
        status,
        at,
        task.rowId,
      );
    },
    setPosition(rowId: number, position: number, rows?: ListRows): void {
      setPosition.run(position, rowId, position);
      if (rows) mirror.position(rows, rowId, position);
    },
    /** The source of a task's last change when only its place changed (a reorder). */
    setChangedBy(rowId: number, changedBy: string | null, rows?: ListRows): void {
      setChangedBy.run(changedBy, rowId, changedBy);
      if (rows) mirror.changedBy(rows, rowId, changedBy);
    },
    /** Its history stays, naming no task (migration 22's trigger). */
    deleteTask(rowId: number, rows?: ListRows): void {
      deleteTask.run(rowId);
      if (rows) mirror.remove(rows, rowId);
    },
    setBlockers(rowId: number, blockerRowIds: number[], rows?: ListRows): void {
      clearDeps.run(rowId);
      for (const blocker of blockerRowIds) insertDep.run(rowId, blocker);
      if (rows) mirror.blockers(rows, rowId, blockerRowIds);
    },
    appendEvent(event: {
      listId: number;
      taskId: number | null;
      at: number;
      actor: string;
      kind: string;
      before?: unknown;
      after?: unknown;
    }) {
      this.insertEventRow({
        ...event,
        before: event.before === undefined ? null : JSON.stringify(event.before),
        after: event.after === undefined ? null : JSON.stringify(event.after),
      });
    },
    /** An event whose before/after are already JSON text (an import); returns its id. */
    insertEventRow(event: {
      listId: number;
      taskId: number | null;
      at: number;
      actor: string;
      kind: string;
      before: string | null;
      after: string | null;
    }): number {
      const info = insertEvent.run(
        event.listId,
        event.taskId,
        event.at,
        event.actor,
        event.kind,
        event.before,
        event.after,
      );
      return Number(info.lastInsertRowid);
    },
    /** The newest message of the conversation, optionally of one role. */
    latestMessageId(conversationId: string, role?: 'user' | 'assistant'): number | null {
      return (role ? latestOfRole.get(conversationId, role) : latestMessage.get(conversationId))?.id ?? null;
    },
    events(listId: number): EventRow[] {
      return eventsOfList.all(listId);
    },
    eventsAfter(conversationId: string, eventId: number): EventRow[] {
      return eventsAfter.all(conversationId, eventId);
    },
    lastEventId(conversationId: string): number {
      return lastEventId.get(conversationId)?.id ?? 0;
    },
    /** The user's unacknowledged edits of a list (JSON text as stored), or null. */
    userEdits(listId: number): string | null {
      return userEdits.get(listId)?.edits ?? null;
    },
    setUserEdits(listId: number, edits: string | null): void {
      if (edits === null) dropUserEdits.run(listId);
      else putUserEdits.run(listId, edits);
    },
    noticeMark(conversationId: string): number {
      return noticeMark.get(conversationId)?.event_id ?? 0;
    },
    setNoticeMark(conversationId: string, eventId: number): void {
      setNoticeMark.run(conversationId, eventId);
    },
    /** `k/N` for the sidebar: open lists only; cancelled tasks do not count. */
    badges(conversationIds: string[]): Map<string, { done: number; total: number }> {
      const result = new Map<string, { done: number; total: number }>();
      if (conversationIds.length === 0) return result;
      for (const row of badgeRows.all(JSON.stringify(conversationIds)))
        result.set(row.conversation_id, { done: row.done, total: row.total });
      return result;
    },
  };
}

export type TaskStore = ReturnType<typeof createTaskStore>;
