// The task ledger in SQLite: which task an agent has in progress, one row per tool call,
// and the counts and lists the task header shows. No transactions here: the agent loop
// writes a row in the transaction that stores the call's result.
import { LEDGER_RESULT_CHARS, type LedgerCall, type LedgerCounts } from '../../../shared/ledger';
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';

export type ToolCallRow = Row<'tool_calls'>;

/** The task an agent is working on: its row, its list and the id users see. */
export interface TaskRef {
  rowId: number;
  listId: number;
  seq: number;
}

/** The first 500 characters (whole characters: a surrogate pair is never split). */
export function resultExcerpt(text: string): string {
  if (text.length <= LEDGER_RESULT_CHARS) return text;
  return Array.from(text).slice(0, LEDGER_RESULT_CHARS).join('');
}

export const toLedgerCall = (row: ToolCallRow): LedgerCall => ({
  id: row.id,
  name: row.name,
  outcome: row.outcome,
  agentId: row.agent_id,
  startedAt: row.started_at,
  endedAt: row.ended_at,
  transcriptId: row.transcript_id,
  messageId: row.message_id,
  toolCallId: row.tool_call_id,
});

export function createLedgerStore(db: Db) {
  // "In progress of that agent": the owner is `main` or the worker's owner id, as in the task rules.
  const inProgress = db.prepare<[string, string], TaskRef>(
    `SELECT t.id AS rowId, t.list_id AS listId, t.seq FROM tasks t JOIN task_lists l ON l.id = t.list_id
     WHERE l.conversation_id = ? AND l.closed_at IS NULL AND t.status = 'in_progress' AND t.owner = ?
     ORDER BY t.position LIMIT 1`,
  );
  const insert = db.prepare(
    `INSERT INTO tool_calls (conversation_id, transcript_id, task_id, agent_id, tool_call_id, message_id, name, arguments,
       outcome, started_at, ended_at, result)
     VALUES (@conversation_id, @transcript_id, @task_id, @agent_id, @tool_call_id, @message_id, @name, @arguments,
       @outcome, @started_at, @ended_at, @result)`,
  );
  const taskExists = db.prepare<[number], { one: number }>('SELECT 1 AS one FROM tasks WHERE id = ?');
  const countOfTask = db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM tool_calls WHERE task_id = ?');
  const openList = db.prepare<[string], { id: number }>(
    'SELECT id FROM task_lists WHERE conversation_id = ? AND closed_at IS NULL',
  );
  const countsOfList = db.prepare<[number], { taskId: number; count: number }>(
    `SELECT t.seq AS taskId, COUNT(c.id) AS count FROM tasks t JOIN tool_calls c ON c.task_id = t.id
     WHERE t.list_id = ? GROUP BY t.id ORDER BY t.seq`,
  );
  const callsOfTask = db.prepare<[number, number], ToolCallRow>(
    `SELECT c.* FROM tool_calls c JOIN tasks t ON t.id = c.task_id WHERE t.list_id = ? AND t.seq = ? ORDER BY c.id`,
  );
  const byConversation = db.prepare<[string], ToolCallRow>(
    'SELECT * FROM tool_calls WHERE conversation_id = ? ORDER BY id',
  );

  return {
    inProgress(conversationId: string, agentId: string): TaskRef | null {
      return inProgress.get(conversationId, agentId) ?? null;
    },
    /** Whether a task row is still there (a call's task may be deleted while the call waits). */
    taskExists(taskRowId: number): boolean {
      return taskExists.get(taskRowId) !== undefined;
    },
    /** Returns the new row's id. `result` is cut to its first 500 characters here. */
    insert(row: Omit<ToolCallRow, 'id'>): number {
      return Number(insert.run({ ...row, result: resultExcerpt(row.result) }).lastInsertRowid);
    },
    countOfTask(taskRowId: number): number {
      return countOfTask.get(taskRowId)?.n ?? 0;
    },
    /** Calls per task of the conversation's open list (tasks without calls are left out). */
    openCounts(conversationId: string): LedgerCounts {
      const list = openList.get(conversationId);
      return list ? { listId: list.id, counts: countsOfList.all(list.id) } : { listId: null, counts: [] };
    },
    /** A task of the open list's calls, oldest first. */
    openTaskCalls(conversationId: string, taskId: number): LedgerCall[] {
      const list = openList.get(conversationId);
      return list ? callsOfTask.all(list.id, taskId).map(toLedgerCall) : [];
    },
    /** Every recorded call of a conversation (its workers' included), linked or not. */
    all(conversationId: string): ToolCallRow[] {
      return byConversation.all(conversationId);
    },
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;
