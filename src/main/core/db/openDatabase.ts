// Opens (or creates) stepwise.db: detects corruption without ever overwriting the
// damaged file, refuses files written by a newer Stepwise, and applies migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_VERSION, migrations, type Migration } from './migrations';

export type Db = Database.Database;

export const DB_FILE = 'stepwise.db';

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
}

export function openDatabase(dataDir: string, options: OpenOptions = {}): OpenedDatabase {
  const file = path.join(dataDir, DB_FILE);
  if (options.readonly) {
    if (!fs.existsSync(file)) throw new Error(`No Stepwise database at ${file}`);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const version = userVersion(db);
    if (version > LATEST_VERSION) {
      db.close();
      throw new DatabaseTooNewError(file, version, LATEST_VERSION);
    }
    return { db, file, movedAside: null };
  }

  fs.mkdirSync(dataDir, { recursive: true });
  let movedAside: string | null = null;
  let db: Db;
  const health = fs.existsSync(file) ? checkHealth(file) : { ok: true as const };
  if (!health.ok) {
    movedAside = moveAside(file);
  }
  db = new Database(file);
  try {
    const version = userVersion(db);
    if (version > LATEST_VERSION) throw new DatabaseTooNewError(file, version, LATEST_VERSION);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    migrate(db, migrations, options.targetVersion ?? LATEST_VERSION);
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, file, movedAside };
}

function userVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function checkHealth(file: string): { ok: true } | { ok: false; reason: string } {
  let probe: Db | null = null;
  try {
    // Read-only: a read-write probe would checkpoint a WAL into the damaged file (or
    // delete a stray WAL) before it could be moved aside.
    probe = new Database(file, { fileMustExist: true, readonly: true });
    const rows = probe.pragma('integrity_check') as Array<{ integrity_check: string }>;
    const first = rows[0]?.integrity_check;
    return first === 'ok' ? { ok: true } : { ok: false, reason: first ?? 'integrity_check failed' };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    probe?.close();
  }
}

/** Renames the file and its WAL/SHM companions; returns the new main path. */
function moveAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.corrupt-${stamp}`;
  fs.renameSync(file, target);
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, target + suffix);
  }
  return target;
}

export function migrate(db: Db, all: Migration[], target: number): void {
  const current = userVersion(db);
  const pending = all.filter((m) => m.version > current && m.version <= target);
  for (const migration of pending) {
    // One transaction per step: a failure leaves the previous version intact.
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}
