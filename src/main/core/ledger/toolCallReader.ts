// Read-only access to the ledger's tool calls of given tasks (exports; SELECT only).
import type { Db } from '../db/openDatabase';
import type { ToolCallRow } from './ledgerStore';

/** The tool calls made while any of these tasks (row ids) was in progress, oldest first. */
export function createToolCallReader(db: Db): (taskIds: readonly number[]) => ToolCallRow[] {
  // One query for a whole list: the ids go in as a JSON array.
  const callsOf = db.prepare<[string], ToolCallRow>(
    'SELECT * FROM tool_calls WHERE task_id IN (SELECT value FROM json_each(?)) ORDER BY id',
  );
  return (taskIds) => (taskIds.length ? callsOf.all(JSON.stringify(taskIds)) : []);
}
