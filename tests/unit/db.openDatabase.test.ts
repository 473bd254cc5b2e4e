// Opening stepwise.db when it is damaged or was written by a newer Stepwise: the damaged
// file is moved aside (never overwritten) and named in a notice; a newer file is refused
// with a clear message and left byte-for-byte as it was.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { DB_FILE, LATEST_VERSION } from '../../src/main/core/db/databaseFile';
import { DatabaseTooNewError, openDatabase } from '../../src/main/core/db/openDatabase';

import { createNodeCore } from '../../src/main/core/createNodeCore';
import { tempDirPerTest } from '../support/tempDir';

const GARBAGE = Buffer.from('This is not a database. '.repeat(400));

function corruptFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.startsWith(`${DB_FILE}.corrupt-`));
}

/**
 * A WAL-mode database left behind by a crash (its -wal still holds the last commits)
 * whose main file has damaged pages: a real SQLite header, failing integrity_check.
 */
function writeCrashedDamagedDatabase(dir: string): void {
  const file = path.join(dir, DB_FILE);
  const db = new Database(path.join(dir, 'live.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX t_body ON t (body);');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(`row ${i} ${'x'.repeat(50)}`);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('wal_autocheckpoint = 0');
  insert.run('written after the last checkpoint');
  // Copy while the connection is open: what a crash leaves on disk.
  fs.copyFileSync(path.join(dir, 'live.db'), file);
  fs.copyFileSync(path.join(dir, 'live.db-wal'), `${file}-wal`);
  db.close();
  for (const f of ['live.db', 'live.db-wal', 'live.db-shm']) fs.rmSync(path.join(dir, f), { force: true });
  const bytes = fs.readFileSync(file);
  const pageSize = bytes.readUInt16BE(16);
  // Scribble over every other middle page (b-tree pages of the table and its index).
  for (let page = 3; page < Math.floor(bytes.length / pageSize) - 1; page += 2) {
    bytes.fill(0xa5, page * pageSize, page * pageSize + pageSize);
  }
  fs.writeFileSync(file, bytes);
}

describe('openDatabase with a damaged file', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });

  it('moves a file that is not a database aside and starts a fresh one', () => {
    const file = path.join(dir.path, DB_FILE);
    fs.writeFileSync(file, GARBAGE);
    const { db, movedAside } = openDatabase(dir.path);
    try {
      expect(movedAside).not.toBeNull();
      expect(path.dirname(movedAside!)).toBe(dir.path);
      expect(path.basename(movedAside!)).toMatch(/^stepwise\.db\.corrupt-\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
      expect(fs.readFileSync(movedAside!)).toEqual(GARBAGE);
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(db.prepare('SELECT COUNT(*) AS n FROM conversations').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('moves a database that fails integrity_check aside untouched, with its WAL', () => {
    const file = path.join(dir.path, DB_FILE);
    writeCrashedDamagedDatabase(dir.path);
    const damaged = fs.readFileSync(file);
    const wal = fs.readFileSync(`${file}-wal`);
    expect(wal.length).toBeGreaterThan(0);
    const { db, movedAside } = openDatabase(dir.path);
    try {
      expect(movedAside).not.toBeNull();
      // Not even checkpointed into: both files are exactly as the crash left them.
      expect(fs.readFileSync(movedAside!)).toEqual(damaged);
      expect(fs.readFileSync(`${movedAside}-wal`)).toEqual(wal);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT COUNT(*) AS n FROM conversations').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('tells the user through a notice that names the moved file, and keeps working', async () => {
    fs.writeFileSync(path.join(dir.path, DB_FILE), GARBAGE);
    const core = createNodeCore({ dataDir: dir.path, env: {} });
    try {
      const [moved] = corruptFiles(dir.path);
      expect(moved).toBeDefined();
      const notices = core.notices.list();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ id: 'db-moved-aside', level: 'warning' });
      expect(notices[0].text).toContain(path.join(dir.path, moved));
      // The same notice reaches the UI through the contract.
      expect(await core.dispatch('notices:list', {})).toEqual({ ok: true, value: notices });
      const created = await core.dispatch('conversations:create', { title: 'After the reset' });
      expect(created.ok).toBe(true);
      expect(await core.dispatch('notices:dismiss', { id: 'db-moved-aside' })).toEqual({ ok: true, value: [] });
    } finally {
      core.close();
    }
  });

  it('shows no notice for a healthy database', () => {
    createNodeCore({ dataDir: dir.path, env: {} }).close();
    const core = createNodeCore({ dataDir: dir.path, env: {} });
    try {
      expect(core.notices.list()).toEqual([]);
      expect(corruptFiles(dir.path)).toEqual([]);
    } finally {
      core.close();
    }
  });
});

describe('openDatabase with a file from a newer Stepwise', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });

  function writeNewerDatabase(): { file: string; bytes: Buffer; mtimeMs: number } {
    const file = path.join(dir.path, DB_FILE);
    const db = new Database(file);
    db.exec("CREATE TABLE future (x TEXT); INSERT INTO future VALUES ('from the future');");
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    return { file, bytes: fs.readFileSync(file), mtimeMs: fs.statSync(file).mtimeMs };
  }

  it('refuses to open it with a message that says what to do, and changes nothing', () => {
    const { file, bytes, mtimeMs } = writeNewerDatabase();
    let thrown: unknown;
    try {
      openDatabase(dir.path);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DatabaseTooNewError);
    const message = (thrown as Error).message;
    expect(message).toContain(file);
    expect(message).toContain(`schema ${LATEST_VERSION + 1}`);
    expect(message).toMatch(/newer version of Stepwise/);
    expect(message).toMatch(/Update Stepwise/);
    expect(fs.readFileSync(file)).toEqual(bytes);
    expect(fs.statSync(file).mtimeMs).toBe(mtimeMs);
    expect(fs.readdirSync(dir.path).sort()).toEqual([DB_FILE]);
  });

  it('refuses read-only opening too', () => {
    const { file, bytes } = writeNewerDatabase();
    expect(() => openDatabase(dir.path, { readonly: true })).toThrow(DatabaseTooNewError);
    expect(fs.readFileSync(file)).toEqual(bytes);
  });

  it('stops the core from starting rather than downgrading', () => {
    const { file, bytes } = writeNewerDatabase();
    expect(() => createNodeCore({ dataDir: dir.path, env: {} })).toThrow(/newer version of Stepwise/);
    expect(fs.readFileSync(file)).toEqual(bytes);
    expect(corruptFiles(dir.path)).toEqual([]);
  });
});
