// The rows of recently changed lists, kept in memory so the next change (the model's
// next manage_todo_list call) does not read its 50 rows again: that read was the largest
// single cost of a change.
//
// Safe by construction rather than by bookkeeping: TEMP triggers on `tasks` and
// `task_deps` call back here on every row written on this connection — by the service,
// an import, a cascade, or a foreign key's SET NULL when a message is deleted — and drop
// that list's entry. The service takes an entry out before it edits the rows and puts
// them back only after its own transaction committed with nothing else written since
// its last statement; a commit by another connection (`data_version`) drops everything.
import type { Db } from '../db/openDatabase';
import { commitsElsewhere, watchWrites } from '../db/writeWatch';
import type { ListRows } from './taskTypes';

const LIMIT = 32;

/** The list a written `tasks` or `task_deps` row belongs to, via one watch per connection. */
function watch(db: Db, listener: (listId: number | null) => void): void {
  const written = (fn: string, row: 'new' | 'old') => `SELECT ${fn}(${row}.list_id);`;
  const depWritten = (fn: string, row: 'new' | 'old') =>
    `SELECT ${fn}((SELECT list_id FROM tasks WHERE id = ${row}.task_id));`;
  // An update names its list once: rows almost never move between lists, and each call
  // from SQLite into JavaScript costs about as much as the update itself.
  const triggers = (fn: string) => `
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_tasks_inserted AFTER INSERT ON tasks BEGIN ${written(fn, 'new')} END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_tasks_updated AFTER UPDATE ON tasks BEGIN
      ${written(fn, 'old')} SELECT ${fn}(new.list_id) WHERE new.list_id IS NOT old.list_id;
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_tasks_deleted AFTER DELETE ON tasks BEGIN ${written(fn, 'old')} END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_task_deps_inserted AFTER INSERT ON task_deps BEGIN ${depWritten(fn, 'new')} END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_task_deps_updated AFTER UPDATE ON task_deps BEGIN ${depWritten(fn, 'old')} ${depWritten(fn, 'new')} END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_task_deps_deleted AFTER DELETE ON task_deps BEGIN ${depWritten(fn, 'old')} END;
  `;
  watchWrites(db, 'task_rows', triggers, (listId) => listener(typeof listId === 'number' ? listId : null));
}

export function createTaskRowCache(db: Db) {
  const entries = new Map<number, ListRows>();
  /** Rows written on this connection so far, by anyone. */
  let writes = 0;
  const elsewhere = commitsElsewhere(db);

  watch(db, (listId) => {
    writes++;
    // A dependency row whose task is already gone (a cascade) names no list: drop all.
    if (listId === null) entries.clear();
    else entries.delete(listId);
  });

  function fresh(): void {
    if (elsewhere()) entries.clear();
  }

  return {
    /** The list's rows, removed from the cache: the caller edits them and puts them back. */
    take(listId: number): ListRows | undefined {
      fresh();
      const rows = entries.get(listId);
      entries.delete(listId);
      return rows;
    },
    /** The list's rows, left in the cache: read them, never edit them. */
    peek(listId: number): ListRows | undefined {
      fresh();
      return entries.get(listId);
    },
    /** Rows written so far; pass the count after your last write to `put`. */
    writes: () => writes,
    /**
     * Keeps `rows` as the list's committed state — only outside any transaction (an outer
     * one could still roll back) and when no row was written since `mark`. The version is
     * not read again here: a commit by another connection since the rows were read must
     * still drop them at the next `take` or `peek`, which compares with the version then.
     */
    put(listId: number, rows: ListRows, mark: number): void {
      if (db.inTransaction || writes !== mark) return;
      entries.delete(listId);
      entries.set(listId, rows);
      if (entries.size > LIMIT) entries.delete(entries.keys().next().value!);
    },
  };
}

export type TaskRowCache = ReturnType<typeof createTaskRowCache>;
