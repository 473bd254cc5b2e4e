// `task_lists.search_text`: a list's conversation title and task titles, case-folded as the
// board folds them (JavaScript's Unicode toLowerCase; SQLite's lower() folds ASCII only),
// one per line. A text filter's words are substrings of this one column, looked up through
// its trigram index task_lists_fts (tools.md, "Sharing task lists"). The fold is a JavaScript
// function, so it is kept up to date by TEMP triggers every connection that writes through
// openDatabase installs; the index follows the column by ordinary triggers (migration 31).
import type Database from 'better-sqlite3';

type Db = Database.Database;

/** The SQL function every Stepwise connection has: the board's fold (shared/boardView's containsText). */
export const FOLD_FUNCTION = 'stepwise_fold';

export const foldForSearch = (text: string): string => text.toLowerCase();

/** The list's folded text, `<list>` naming the task_lists row (e.g. `task_lists`). */
export const searchTextOf = (list: string) => `${FOLD_FUNCTION}(
  coalesce((SELECT c.title FROM conversations c WHERE c.id = ${list}.conversation_id), '') || char(10) ||
  coalesce((SELECT group_concat(t.title, char(10)) FROM tasks t WHERE t.list_id = ${list}.id), ''))`;

const refresh = (where: string) => `UPDATE task_lists SET search_text = ${searchTextOf('task_lists')} WHERE ${where};`;

/** Registers the fold (migrations use it to fill the column). */
export function registerFold(db: Db): void {
  db.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? foldForSearch(value) : value,
  );
}

/** Keeps search_text in step with every write on this connection. */
export function installSearchTextTriggers(db: Db): void {
  db.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_search_list_added AFTER INSERT ON task_lists BEGIN
      ${refresh('id = new.id')}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_search_task_added AFTER INSERT ON tasks BEGIN
      ${refresh('id = new.list_id')}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_search_task_renamed AFTER UPDATE OF title, list_id ON tasks BEGIN
      ${refresh('id IN (old.list_id, new.list_id)')}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_search_task_deleted AFTER DELETE ON tasks BEGIN
      ${refresh('id = old.list_id')}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS stepwise_search_conversation_renamed AFTER UPDATE OF title ON conversations BEGIN
      ${refresh('conversation_id = new.id')}
    END;
  `);
}
