// A journal left by a crash during an update, rolled back before anything reads the file
// read-only. Its own module: the browser host's entry checks for a pending update before
// the worker starts, and loads nothing of the database code for it (db/databaseFile.ts).
import fs from 'node:fs';
import Database from 'better-sqlite3';

/**
 * A journal left by a crash during an update (migrations write through a rollback journal)
 * is rolled back, as SQLite does on any open for writing: a read-only open cannot, and
 * refuses the file until it is. Whatever else is wrong is left to the checks that follow.
 */
export function rollBackLeftJournal(file: string, timeout: number): void {
  if (!fs.existsSync(`${file}-journal`)) return;
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { fileMustExist: true, timeout });
    db.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
  } catch {
    // Damaged, busy or forbidden: the checks that follow say which.
  } finally {
    db?.close();
  }
}
