// One Stepwise per data directory (desktop app, browser host, or a second host), and a
// record of whether the last one shut down cleanly.
//
// The lock is SQLite's own: a small database file held in a write transaction for the
// whole run. The operating system releases that lock when the process ends, however it
// ends, so a crash never leaves a stale lock behind and no pid can be mistaken for ours.
// Readers (the CLI) never take it. Who holds it, and whether the previous holder closed
// cleanly, is committed before the lock is taken, so a refused instance can name it.
import path from 'node:path';
import Database from 'better-sqlite3';
import { touchPrivate } from './privateFiles';
import {
  errorText,
  inUseByAnotherStepwise,
  isBusyError,
  isPermissionError,
  readOnlyDataDir,
  StorageError,
} from './storageErrors';

export const LOCK_FILE = 'stepwise.lock';

export interface InstanceLock {
  /** The previous holder did not release the lock: it crashed, or this is the first run with a lock. */
  uncleanShutdown: boolean;
  /**
   * Lets the next instance in. `clean: false` (a start-up that failed before checking the
   * database) keeps the record of an unclean shutdown, so the next start checks it.
   */
  release(options?: { clean?: boolean }): void;
}

interface Holder {
  pid: number;
  host: string;
  started_at: number;
  running: number;
}

function describe(holder: Holder | undefined): string | null {
  if (!holder) return null;
  return `${holder.host}, process ${holder.pid}, started ${new Date(holder.started_at).toISOString()}`;
}

export function acquireInstanceLock(dataDir: string, host: string, now: () => number = Date.now): InstanceLock {
  const file = path.join(dataDir, LOCK_FILE);
  let db: Database.Database;
  try {
    touchPrivate(file);
    // timeout 0: a second instance is refused at once rather than after a wait.
    db = new Database(file, { timeout: 0 });
  } catch (error) {
    if (isPermissionError(error)) throw readOnlyDataDir(dataDir, errorText(error));
    throw error;
  }
  const holder = (): Holder | undefined => {
    try {
      return db.prepare<[], Holder>('SELECT pid, host, started_at, running FROM instance WHERE id = 1').get();
    } catch {
      return undefined;
    }
  };
  const refuse = (error: unknown): never => {
    const who = isBusyError(error) ? describe(holder()) : null;
    db.close();
    if (isBusyError(error)) throw inUseByAnotherStepwise(dataDir, who);
    if (isPermissionError(error)) throw readOnlyDataDir(dataDir, errorText(error));
    if (error instanceof StorageError) throw error;
    throw new StorageError('unreadable', `Stepwise could not lock its data directory ${dataDir}: ${errorText(error)}`);
  };

  let uncleanShutdown = true;
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec(
      'CREATE TABLE IF NOT EXISTS instance (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, started_at INTEGER NOT NULL, running INTEGER NOT NULL)',
    );
    const previous = holder();
    uncleanShutdown = !previous || previous.running !== 0;
    db.prepare('INSERT OR REPLACE INTO instance (id, pid, host, started_at, running) VALUES (1, ?, ?, ?, 1)').run(
      process.pid,
      host,
      now(),
    );
    db.exec('COMMIT');
    // Held until release(): a write lock other instances cannot take, readers can.
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    return refuse(error);
  }

  let released = false;
  return {
    uncleanShutdown,
    release({ clean = true } = {}) {
      if (released) return;
      released = true;
      try {
        db.prepare('UPDATE instance SET running = ? WHERE id = 1').run(clean || !uncleanShutdown ? 0 : 1);
        db.exec('COMMIT');
      } finally {
        db.close();
      }
    },
  };
}
