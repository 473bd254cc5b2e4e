// Opens (or creates) stepwise.db: detects corruption without ever overwriting the
// damaged file, refuses files written by a newer Stepwise, and applies migrations. A file
// that is busy, locked or not readable is never taken for a damaged one.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations, type Migration } from './migrations';
import { DB_FILE, LATEST_VERSION } from './databaseFile';
import { rollBackLeftJournal } from './leftJournal';
import { installSearchTextTriggers, registerFold } from './foldedText';
import { makePrivate, touchPrivate } from '../storage/privateFiles';
import { prepareWritableDir } from '../storage/openDataDir';
import {
  databaseBusy,
  errorCode,
  errorText,
  isBusyError,
  isCorruptionError,
  isPermissionError,
  readOnlyDataDir,
  unreadable,
} from '../storage/storageErrors';
import type { Notice } from '../../../shared/domain';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `${file} was written by a newer version of Stepwise (schema ${found}; this version knows up to ${known}). ` +
        'Update Stepwise to open it. The file was not changed.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

export interface OpenedDatabase {
  db: Db;
  file: string;
  /** Set when a damaged file was moved aside: the path it was moved to. */
  movedAside: string | null;
}

export interface OpenOptions {
  readonly?: boolean;
  /** Only for tests of upgrades: stop migrating at this version. */
  targetVersion?: number;
  /**
   * The last run did not close cleanly (the instance lock says so): run the full
   * integrity_check. Otherwise only a cheap probe runs, unless a WAL left behind says
   * the file was not closed.
   */
  uncleanShutdown?: boolean;
  /** How long to wait for another program's lock before saying the file is in use. */
  busyTimeoutMs?: number;
  /** The caller ran checkHealth on the file just now (the migration worker): no second check. */
  healthChecked?: boolean;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** The migration that added task_lists.search_text (its triggers need the column). */
const SEARCH_TEXT_VERSION = 28;

export function openDatabase(dataDir: string, options: OpenOptions = {}): OpenedDatabase {
  const file = path.join(dataDir, DB_FILE);
  const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (options.readonly) {
    if (!fs.existsSync(file)) throw new Error(`No Stepwise database at ${file}`);
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout });
    const version = userVersion(db);
    if (version > LATEST_VERSION) {
      db.close();
      throw new DatabaseTooNewError(file, version, LATEST_VERSION);
    }
    return { db, file, movedAside: null };
  }

  prepareWritableDir(dataDir);
  let movedAside: string | null = null;
  if (fs.existsSync(file) && !options.healthChecked) {
    checkAccess(file);
    const health = checkHealth(file, { full: options.uncleanShutdown === true || hasLeftoverWal(file), timeout });
    if (!health.ok) movedAside = moveAside(dataDir, file);
  }
  // Created 0600 before SQLite opens it: its -wal and -shm take the database file's mode.
  touchPrivate(file);
  let db: Db;
  try {
    db = new Database(file, { timeout });
  } catch (error) {
    throw explain(error, file);
  }
  try {
    const version = userVersion(db);
    if (version > LATEST_VERSION) throw new DatabaseTooNewError(file, version, LATEST_VERSION);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    registerFold(db);
    migrate(db, migrations, options.targetVersion ?? LATEST_VERSION);
    if (userVersion(db) >= SEARCH_TEXT_VERSION) installSearchTextTriggers(db);
  } catch (error) {
    db.close();
    throw explain(error, file);
  }
  for (const suffix of ['-wal', '-shm']) makePrivate(file + suffix);
  return { db, file, movedAside };
}

/** A busy or forbidden file is reported as such; anything else passes through unchanged. */
function explain(error: unknown, file: string): unknown {
  if (isBusyError(error)) return databaseBusy(file);
  if (isPermissionError(error)) return unreadable(file, errorText(error));
  return error;
}

function checkAccess(file: string): void {
  for (const target of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.accessSync(target, fs.constants.R_OK | fs.constants.W_OK);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') continue;
      throw unreadable(target, errorText(error));
    }
  }
}

/** SQLite removes the WAL when the last connection closes cleanly: one left with content means a crash. */
function hasLeftoverWal(file: string): boolean {
  try {
    return fs.statSync(`${file}-wal`).size > 0;
  } catch {
    return false;
  }
}

function userVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Corrupt means SQLite says the bytes are damaged: not a database at all, or pages that
 * fail integrity_check. Busy, locked or forbidden files throw instead: they are healthy
 * files that must stay exactly where they are.
 */
export function checkHealth(
  file: string,
  how: { full: boolean; timeout: number },
): { ok: true } | { ok: false; reason: string } {
  rollBackLeftJournal(file, how.timeout);
  let probe: Db | null = null;
  try {
    // Read-only: a read-write probe would checkpoint a WAL into the damaged file (or
    // delete a stray WAL) before it could be moved aside.
    probe = new Database(file, { fileMustExist: true, readonly: true, timeout: how.timeout });
    // Reading the schema fails at once on a file that is not a database.
    probe.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
    if (!how.full) return { ok: true };
    const rows = probe.pragma('integrity_check') as Array<{ integrity_check: string }>;
    const first = rows[0]?.integrity_check;
    return first === 'ok' ? { ok: true } : { ok: false, reason: first ?? 'integrity_check failed' };
  } catch (error) {
    if (isCorruptionError(error)) return { ok: false, reason: errorText(error) };
    throw explain(error, file);
  } finally {
    probe?.close();
  }
}

/** Renames the file and its WAL/SHM companions; returns the new main path. */
function moveAside(dataDir: string, file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.corrupt-${stamp}`;
  try {
    fs.renameSync(file, target);
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, target + suffix);
    }
  } catch (error) {
    if (isPermissionError(error)) throw readOnlyDataDir(dataDir, errorText(error));
    throw error;
  }
  return target;
}

export function migrate(db: Db, all: Migration[], target: number): void {
  const current = userVersion(db);
  const pending = all.filter((m) => m.version > current && m.version <= target);
  if (!pending.length) return;
  // An update of existing data rewrites whole tables: through a rollback journal the new
  // pages go to the file once, where the write-ahead log took them twice (docs/performance.md,
  // issue 39 round 11).
  const journaled = current > 0 && toRollbackJournal(db);
  // One transaction for every pending step: a failure leaves the file at the version it
  // had, and the log is committed and checkpointed once, not after each step (a tenth less
  // time on a large database several versions old: docs/performance.md).
  try {
    db.transaction(() => {
      for (const migration of pending) {
        db.exec(migration.sql);
        migration.convert?.(db);
        db.pragma(`user_version = ${migration.version}`);
      }
    })();
  } finally {
    // A step may skip a check it knows holds (migration 25); none stays skipped after.
    db.pragma('ignore_check_constraints = OFF');
    if (journaled) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
  }
}

/**
 * Leaves the write-ahead log for a rollback journal, synced in full (with NORMAL a power
 * cut could damage a file in this mode). A crash meanwhile leaves a journal that the next
 * open rolls back. False, and the log kept, when another connection holds the file (the
 * switch needs it alone).
 */
function toRollbackJournal(db: Db): boolean {
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return false;
  try {
    if (db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') return false;
  } catch (error) {
    if (isBusyError(error)) return false;
    throw error;
  }
  db.pragma('synchronous = FULL');
  return true;
}

/** What the user is told when the database could not be read and was moved aside. */
export function movedAsideNotice(movedAside: string | null): Notice | null {
  if (!movedAside) return null;
  return {
    id: 'db-moved-aside',
    level: 'warning',
    text: `The conversation database could not be read, so Stepwise started a new one. The old file was kept as ${movedAside}.`,
  };
}
