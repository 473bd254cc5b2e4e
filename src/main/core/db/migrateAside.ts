// Migrations off the main thread, so that a host can show "Updating your data…" while they
// run: a migration of a large database takes seconds, and better-sqlite3 holds the thread
// that runs it for all of that time (no page served, no window painted). The worker opens
// the file itself (migrateWorker.ts, its own build entry) and runs the same migrations;
// the core then opens a database that is already up to date.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { DB_FILE, LATEST_VERSION } from './databaseFile';
import { rollBackLeftJournal } from './leftJournal';
import type { InstanceLock } from '../storage/instanceLock';

/** The lock as the core should see it once the worker checked the file in full (no second check). */
export function afterWorker<L extends { uncleanShutdown: boolean }>(lock: L, result: { error: string | null }): L {
  return result.error === null ? { ...lock, uncleanShutdown: false } : lock;
}

/**
 * Lets the data directory go after a stop during the update: as after a clean stop (the
 * worker has ended, and a stopped one rolled its transaction back), unless a crash before
 * asked for a full check that the worker did not finish.
 */
export function releaseAfterStop(
  lock: Pick<InstanceLock, 'uncleanShutdown' | 'release'>,
  result: { error: string | null },
): void {
  lock.release({ clean: !afterWorker(lock, result).uncleanShutdown });
}

/**
 * True when the database exists, reads as a database and is at an older schema: a start
 * that will migrate. Anything unusual (missing, damaged, busy, newer) answers false and is
 * left to the ordinary start, which explains it.
 */
export function migrationPending(dataDir: string): boolean {
  const file = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(file)) return false;
  rollBackLeftJournal(file, 1000);
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
    db.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
    const version = db.pragma('user_version', { simple: true }) as number;
    return version > 0 && version < LATEST_VERSION;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

export interface MigrateWorker {
  /** The built worker entry (`out/main/migrate.js`), or the source file with a loader in `execArgv`. */
  file: string;
  execArgv?: string[];
}

/** What a worker's run came to: `error: null` is checked and up to date; `stopped`, ended by its caller. */
export interface WorkerResult {
  error: string | null;
  stopped?: true;
}

const STOPPED: WorkerResult = { error: 'the update was stopped', stopped: true };

/**
 * Checks the file (in full after an unclean shutdown: `fullCheck`) and runs the pending
 * migrations in a worker thread. Resolves either way: a failure is left for the ordinary
 * open, which checks and migrates again and reports what it finds (the steps are one
 * transaction, so nothing is half done). `error: null`: the file was checked and is up to
 * date, so the core's open need not check it in full again. `signal` stops the worker: its
 * transaction is rolled back as its thread ends, and the run resolves `stopped` once the
 * thread is gone, so the file is closed and as it was.
 */
export function migrateInWorker(
  dataDir: string,
  worker: MigrateWorker,
  fullCheck = false,
  signal?: AbortSignal,
): Promise<WorkerResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: WorkerResult) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', stop);
      resolve(result);
    };
    const fail = (error: string) => settle({ error });
    let thread: Worker;
    // The thread's exit settles the run: by then its database is closed.
    const stop = () => void thread.terminate();
    if (signal?.aborted) return settle(STOPPED);
    try {
      thread = new Worker(worker.file, { workerData: { dataDir, fullCheck }, execArgv: worker.execArgv });
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
    signal?.addEventListener('abort', stop, { once: true });
    thread.on('message', (message: { error: string | null }) => settle({ error: message.error }));
    thread.on('error', (error) => fail(error.message));
    thread.on('exit', () => settle(signal?.aborted ? STOPPED : { error: 'the migration stopped unexpectedly' }));
  });
}
