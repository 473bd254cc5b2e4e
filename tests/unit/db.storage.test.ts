// What is not corruption: a database another program holds locked stays where it is, with
// a message that says so; a second Stepwise on the same data directory is refused without
// disturbing the first; the full integrity_check runs only after an unclean shutdown; and
// the data directory and its files are private whatever the umask.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { DB_FILE } from '../../src/main/core/db/databaseFile';
import { LOCK_FILE } from '../../src/main/core/storage/instanceLock';
import { StorageError } from '../../src/main/core/storage/storageErrors';
import { tempDirPerTest } from '../support/tempDir';

const posix = process.platform !== 'win32';
const mode = (file: string) => fs.statSync(file).mode & 0o777;
const listing = (dir: string) => fs.readdirSync(dir).sort();

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** A healthy database with one conversation, closed cleanly. */
function seed(dir: string): void {
  const core = createNodeCore({ dataDir: dir, env: {} });
  core.conversations.create('Kept safe');
  core.close();
}

describe('a database another program holds', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });

  it('a locked database is not moved aside', () => {
    seed(dir.path);
    const file = path.join(dir.path, DB_FILE);
    const bytes = fs.readFileSync(file);
    // The reproduction: an exclusive lock held by another connection.
    const holder = new Database(file);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    const before = listing(dir.path);
    try {
      const error = thrown(() => openDatabase(dir.path, { busyTimeoutMs: 50 }));
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).kind).toBe('busy');
      expect((error as Error).message).toBe(
        `The database ${file} is in use by another program (another Stepwise?). Close it and start again. The file was not changed.`,
      );
      expect(listing(dir.path)).toEqual(before);
      expect(listing(dir.path).some((f) => f.includes('.corrupt-'))).toBe(false);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(fs.readFileSync(file)).toEqual(bytes);
    // Once the other program lets go, everything is there.
    const core = createNodeCore({ dataDir: dir.path, env: {} });
    try {
      expect(core.conversations.list('', 0, 10).items.map((c) => c.title)).toEqual(['Kept safe']);
      expect(core.notices.list()).toEqual([]);
    } finally {
      core.close();
    }
  });

  it('a second Stepwise on the same data directory is refused and the first keeps working', async () => {
    const first = createNodeCore({ dataDir: dir.path, env: {} });
    try {
      const error = thrown(() => createNodeCore({ dataDir: dir.path, env: {} }));
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).kind).toBe('in-use');
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Another Stepwise \\(the browser host, process ${process.pid}, started [\\d-]+T[\\d:.]+Z\\) is already using the data directory `,
        ),
      );
      expect((error as Error).message).toContain('Close it and start again');
      const created = await first.dispatch('conversations:create', { title: 'Still writable' });
      expect(created.ok).toBe(true);
    } finally {
      first.close();
    }
    // Released on close: the next one starts.
    const next = createNodeCore({ dataDir: dir.path, env: {} });
    try {
      expect(next.conversations.list('', 0, 10).items.map((c) => c.title)).toEqual(['Still writable']);
    } finally {
      next.close();
    }
  });
});

/** Scribbles over data pages at the end of a cleanly closed database; the schema pages stay readable. */
function damageDataPages(file: string): void {
  const bytes = fs.readFileSync(file);
  const pageSize = bytes.readUInt16BE(16);
  const pages = Math.floor(bytes.length / pageSize);
  for (let page = pages - 8; page < pages - 1; page += 2) {
    bytes.fill(0xa5, page * pageSize, (page + 1) * pageSize);
  }
  fs.writeFileSync(file, bytes);
}

function seedMany(dir: string): void {
  const core = createNodeCore({ dataDir: dir, env: {} });
  core.db.transaction(() => {
    for (let i = 0; i < 300; i++) core.conversations.create(`Conversation ${i} ${'x'.repeat(100)}`);
  })();
  core.close();
}

function markRunning(dir: string): void {
  const lock = new Database(path.join(dir, LOCK_FILE));
  lock.prepare('UPDATE instance SET running = 1').run();
  lock.close();
}

describe('the integrity check', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });

  it('runs after an unclean shutdown and moves a damaged file aside intact, with a notice', () => {
    seedMany(dir.path);
    const file = path.join(dir.path, DB_FILE);
    damageDataPages(file);
    const damaged = fs.readFileSync(file);
    // What a crash leaves: the lock's record says the last instance was still running.
    markRunning(dir.path);
    const core = createNodeCore({ dataDir: dir.path, env: {} });
    try {
      const moved = listing(dir.path).find((f) => f.startsWith(`${DB_FILE}.corrupt-`));
      expect(moved).toBeDefined();
      expect(fs.readFileSync(path.join(dir.path, moved!))).toEqual(damaged);
      expect(core.notices.list().map((n) => n.id)).toEqual(['db-moved-aside']);
    } finally {
      core.close();
    }
  });

  it('is skipped after a clean shutdown (the cheap probe still reads the file)', () => {
    seedMany(dir.path);
    damageDataPages(path.join(dir.path, DB_FILE));
    // Damage inside table pages is only found by the full check, which a clean start skips.
    const { db, movedAside } = openDatabase(dir.path, { uncleanShutdown: false });
    db.close();
    expect(movedAside).toBeNull();
    const again = openDatabase(dir.path, { uncleanShutdown: true });
    again.db.close();
    expect(again.movedAside).not.toBeNull();
  });
});

describe.skipIf(!posix)('private files', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });

  it('creates the data directory 0700 and its files 0600 under umask 022, and fixes wider modes at start-up', async () => {
    const previous = process.umask(0o022);
    try {
      const dataDir = path.join(dir.path, 'data');
      fs.mkdirSync(dataDir, { mode: 0o755 });
      fs.chmodSync(dataDir, 0o755);
      // Files an older version (or another tool) left readable by everyone.
      fs.writeFileSync(path.join(dataDir, 'mcp.json'), '{"servers":{}}', { mode: 0o644 });
      fs.writeFileSync(path.join(dataDir, 'settings.json'), '{}', { mode: 0o666 });
      fs.chmodSync(path.join(dataDir, 'settings.json'), 0o666);
      const core = createNodeCore({ dataDir, env: {} });
      try {
        expect((await core.dispatch('settings:update', { patch: { temperature: 0.3 } })).ok).toBe(true);
        expect((await core.dispatch('providers:setKey', { id: 'default', key: 'sk-private' })).ok).toBe(true);
        await core.dispatch('conversations:create', { title: 'Written' });
        expect(mode(dataDir)).toBe(0o700);
        const files = listing(dataDir);
        expect(files).toEqual(
          expect.arrayContaining([
            DB_FILE,
            `${DB_FILE}-wal`,
            `${DB_FILE}-shm`,
            'settings.json',
            'mcp.json',
            'api-key',
            LOCK_FILE,
          ]),
        );
        for (const name of files) expect([name, mode(path.join(dataDir, name))]).toEqual([name, 0o600]);
      } finally {
        core.close();
      }
    } finally {
      process.umask(previous);
    }
  });
});
