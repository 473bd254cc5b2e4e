// A database of an older version is migrated in a worker thread while the host already
// serves its address: the app's page says "Updating your data…" in its root until the core
// is there, then it is the app's page as it is (issue 39); a socket asked for meanwhile
// opens once the core is there, which is when the page draws the app over the notice. The
// in-process host's core is a promise the test settles, so both states are seen whatever
// the machine's speed; the child-process host starts on an old database from the command
// line and ends up serving the app on a migrated file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { afterEach, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { migrateInWorker, migrationPending } from '../../src/main/core/db/migrateAside';
import { DB_FILE, LATEST_VERSION } from '../../src/main/core/db/databaseFile';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { UPDATING_TEXT } from '../../src/main/core/db/updatingPage';
import { UPDATING_ATTRIBUTE } from '../../src/shared/updatingNotice';
import { acquireInstanceLock } from '../../src/main/core/storage/instanceLock';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { connectHost, integrityOk, readDb, startHostChild } from '../support/hostChild';
import { makeTempDir, removeDir } from '../support/tempDir';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKER = {
  file: path.join(ROOT, 'src/main/core/db/migrateWorker.ts'),
  execArgv: ['--import', pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href],
};
const OLD_VERSION = 27;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function oldDataDir(): string {
  const dataDir = makeTempDir('stepwise-updating-');
  cleanups.push(() => removeDir(dataDir));
  openDatabase(dataDir, { targetVersion: OLD_VERSION }).db.close();
  return dataDir;
}

const version = (dataDir: string) => readDb(dataDir, (db) => db.pragma('user_version', { simple: true }));

/** Another connection's write transaction: an update cannot finish while it is held. */
function holdWrites(dataDir: string): () => void {
  const db = new Database(path.join(dataDir, DB_FILE));
  db.exec('BEGIN IMMEDIATE');
  const release = () => {
    if (db.open) db.exec('ROLLBACK');
    db.close();
  };
  cleanups.push(release);
  return release;
}

/** The host from the command line updates the file and serves the app. */
async function startsUpdated(dataDir: string): Promise<void> {
  const host = await startHostChild(dataDir, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
  cleanups.push(() => host.kill());
  // The socket opens once the update has ended (at once if it already has).
  const client = await connectHost(host);
  cleanups.push(() => client.close());
  expect(version(dataDir)).toBe(LATEST_VERSION);
  expect(await client.call('conversations:list', {})).toBeDefined();
}

/** True when the last holder of the data directory let it go cleanly. */
function closedCleanly(dataDir: string): boolean {
  const lock = acquireInstanceLock(dataDir, 'the test');
  lock.release();
  return !lock.uncleanShutdown;
}

it('finds a pending migration and runs it in a worker thread', async () => {
  const dataDir = oldDataDir();
  expect(migrationPending(dataDir)).toBe(true);
  // After an unclean shutdown the worker checks the whole file first.
  expect(await migrateInWorker(dataDir, WORKER, true)).toEqual({ error: null });
  expect(version(dataDir)).toBe(LATEST_VERSION);
  expect(migrationPending(dataDir)).toBe(false);
  // Nothing to do: no database yet, or one that is up to date.
  const empty = makeTempDir('stepwise-updating-empty-');
  cleanups.push(() => removeDir(empty));
  expect(migrationPending(empty)).toBe(false);
});

it('stops the worker when asked: the file is closed and as it was, and the next update runs', async () => {
  const dataDir = oldDataDir();
  const releaseWrites = holdWrites(dataDir);
  const stopping = new AbortController();
  const run = migrateInWorker(dataDir, WORKER, false, stopping.signal);
  stopping.abort();
  releaseWrites();
  expect(await run).toEqual({ error: 'the update was stopped', stopped: true });
  expect(version(dataDir)).toBe(OLD_VERSION);
  // Nothing of the stopped worker holds the file: the next run writes it.
  expect(await migrateInWorker(dataDir, WORKER)).toEqual({ error: null });
  expect(version(dataDir)).toBe(LATEST_VERSION);
});

it('serves "Updating your data…" while the core is pending, then the app', async () => {
  const dataDir = oldDataDir();
  const rendererDir = makeTempDir('stepwise-updating-renderer-');
  cleanups.push(() => removeDir(rendererDir));
  const appPage = '<!doctype html><title>Stepwise app</title><body><div id="root"></div></body>';
  fs.writeFileSync(path.join(rendererDir, 'index.html'), appPage);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const core = gate.then(() => migrateInWorker(dataDir, WORKER)).then(() => createNodeCore({ dataDir }));
  const host: RunningHost = await startHost({ core, rendererDir });
  cleanups.push(async () => {
    await host.close();
    (await core).close();
  });
  const base = `http://127.0.0.1:${host.port}`;

  const notice = await fetch(host.url);
  expect(notice.status).toBe(200);
  const page = await notice.text();
  // The app's own page, its root holding the notice.
  expect(page).toMatch(new RegExp(`<title>Stepwise app</title><body><div id="root"><main ${UPDATING_ATTRIBUTE}[^>]*>`));
  expect(page).toContain(`<p role="status">${UPDATING_TEXT}</p>`);
  expect(notice.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(notice.headers.get('cache-control')).toBe('no-store');
  // A socket asked for while updating is held, and opens once the core is there: a client
  // that connects as soon as the address is printed waits instead of failing.
  const early = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { Origin: base } });
  cleanups.push(() => early.terminate());
  const opened = new Promise<void>((resolve, reject) => {
    early.once('open', () => resolve());
    early.once('error', reject);
  });
  // Another request answered after the socket's: it is still waiting.
  expect((await fetch(host.url)).status).toBe(200);
  expect(early.readyState).toBe(WebSocket.CONNECTING);
  expect(version(dataDir)).toBe(OLD_VERSION);
  // The page needs the token while updating too.
  expect((await fetch(base)).status).toBe(401);

  release();
  await opened;
  expect(version(dataDir)).toBe(LATEST_VERSION);
  expect(await (await fetch(host.url)).text()).toBe(appPage);
  const client = await connectHost(host);
  cleanups.push(() => client.close());
  expect((await client.call('app:info', {})).version).toBeTruthy();
});

it('starts from the command line on an old database: the address first, then the migrated app', async () => {
  await startsUpdated(oldDataDir());
}, 60_000);

it.each([
  { before: 'a clean stop', cleanBefore: true },
  { before: 'a crash, whose full check the stop cut short', cleanBefore: false },
])(
  'stops on SIGTERM while updating after $before: says so, changes nothing, keeps the record',
  async ({ cleanBefore }) => {
    const dataDir = oldDataDir();
    // A first run counts as unclean; one clean stop before makes it clean.
    if (cleanBefore) closedCleanly(dataDir);
    // The update cannot end before the stop: its first write waits for this transaction.
    const releaseWrites = holdWrites(dataDir);
    const host = await startHostChild(dataDir, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    cleanups.push(() => host.kill());
    const exitCode = new Promise<number | null>((resolve) => host.child.once('exit', (code) => resolve(code)));
    host.child.kill('SIGTERM');
    releaseWrites();
    expect(await exitCode).toBe(0);
    expect(await host.exited).toBeNull();
    expect(host.stderr()).toContain(
      'stepwise: stopped while updating your data. Nothing was changed; the update runs again at the next start.',
    );
    expect(version(dataDir)).toBe(OLD_VERSION);
    expect(closedCleanly(dataDir)).toBe(cleanBefore);
    await startsUpdated(dataDir);
  },
  60_000,
);

// What a process killed during an update leaves: the rollback journal the update writes
// through, with the file changed part of the way, uncommitted.
const CRASH_MID_UPDATE = `
  const Database = require('better-sqlite3');
  const db = new Database(process.argv[1]);
  db.pragma('journal_mode = DELETE');
  db.pragma('cache_size = 10');
  db.exec('BEGIN');
  db.exec('ALTER TABLE messages ADD COLUMN half_done TEXT');
  db.exec("CREATE TABLE half_written (a TEXT)");
  db.prepare('INSERT INTO half_written VALUES (hex(randomblob(400)))').run();
  for (let i = 0; i < 12; i++) db.exec('INSERT INTO half_written SELECT hex(randomblob(400)) FROM half_written');
  process.kill(process.pid, 'SIGKILL');
`;

/** An old data directory as a process killed in the middle of its update left it. */
function crashedMidUpdate(): string {
  const dataDir = oldDataDir();
  const file = path.join(dataDir, DB_FILE);
  expect(() =>
    execFileSync(process.execPath, ['-e', CRASH_MID_UPDATE, file], { cwd: ROOT, stdio: 'ignore' }),
  ).toThrow();
  expect(fs.existsSync(`${file}-journal`)).toBe(true);
  return dataDir;
}

it('rolls back what a crash during the update left, then updates at the next start', async () => {
  const dataDir = crashedMidUpdate();
  expect(migrationPending(dataDir)).toBe(true);
  expect(version(dataDir)).toBe(OLD_VERSION);
  await startsUpdated(dataDir);
  expect(
    readDb(dataDir, (db) => db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half_written'").all()),
  ).toEqual([]);
  expect(readDb(dataDir, (db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
  expect(integrityOk(dataDir)).toBe(true);
}, 60_000);

it('opens the core on what a crash during the update left, when no worker ran first', () => {
  const dataDir = crashedMidUpdate();
  const { db } = openDatabase(dataDir);
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half_written'").all()).toEqual([]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  } finally {
    db.close();
  }
  expect(integrityOk(dataDir)).toBe(true);
});
