// Migrations on a real SQLite file: from empty, and from every earlier version to the
// latest. The loop runs over `migrations`, so a new migration is covered the day it lands:
// rows present at each older version must survive, and the upgraded schema must equal a
// fresh one. Hand-written seeds add rows a person would really have at that version.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrations, type Migration } from '../../src/main/core/db/migrations';
import { DB_FILE, LATEST_VERSION } from '../../src/main/core/db/databaseFile';
import { migrate, openDatabase, type Db } from '../../src/main/core/db/openDatabase';

import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { tempDirPerTest } from '../support/tempDir';
import { createPlanStore } from '../../src/main/core/plans/planStore';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

interface Seed {
  version: number;
  /** Inserts rows with the SQL of that version's schema. */
  seed(db: Db): void;
  /** Checks the rows through today's code after the upgrade. */
  verify(db: Db): void;
}

const seeds: Seed[] = [
  {
    version: 1,
    seed(db) {
      const conv = db.prepare(
        'INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source) VALUES (?, ?, ?, ?, ?, ?)',
      );
      conv.run(A, 'Trip to Lisbon', 1000, 5000, 1, 'user');
      conv.run(B, '50% done_draft', 2000, 9000, 0, 'auto');
      const msg = db.prepare(
        `INSERT INTO messages (conversation_id, role, content, created_at, tool_calls, tool_call_id, tool_name, status, error, origin)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      msg.run(A, 'user', 'Plan a weekend in Lisbon', 1100, null, null, null, 'complete', null, 'user');
      msg.run(
        A,
        'assistant',
        '',
        1200,
        JSON.stringify([{ id: 'call_1', name: 'plan', arguments: '{"steps":2}' }]),
        null,
        null,
        'complete',
        null,
        'system',
      );
      msg.run(A, 'tool', '{"ok":true}', 1300, null, 'call_1', 'plan', 'complete', null, 'system');
      msg.run(A, 'assistant', 'Half a reply', 1400, null, null, null, 'streaming', null, 'system');
      msg.run(B, 'assistant', '', 2100, null, null, null, 'error', 'Server said 500', 'system');
    },
    verify(db) {
      const conversations = createConversationRepo(db);
      const messages = createMessageRepo(db);
      const { items, total } = conversations.list('', 0, 50);
      expect(total).toBe(2);
      expect(items.map((c) => [c.id, c.title, c.pinned, c.titleSource, c.createdAt, c.updatedAt])).toEqual([
        [A, 'Trip to Lisbon', true, 'user', 1000, 5000],
        [B, '50% done_draft', false, 'auto', 2000, 9000],
      ]);
      expect(conversations.list('50%', 0, 50).items.map((c) => c.id)).toEqual([B]);

      const inA = messages.all(A);
      expect(inA.map((m) => [m.role, m.content, m.status])).toEqual([
        ['user', 'Plan a weekend in Lisbon', 'complete'],
        ['assistant', '', 'complete'],
        ['tool', '{"ok":true}', 'complete'],
        ['assistant', 'Half a reply', 'streaming'],
      ]);
      expect(inA[1].toolCalls).toEqual([{ id: 'call_1', name: 'plan', arguments: '{"steps":2}' }]);
      expect([inA[2].toolCallId, inA[2].toolName]).toEqual(['call_1', 'plan']);
      expect(messages.all(B)[0]).toMatchObject({ status: 'error', error: 'Server said 500' });
      // A reply cut off by a crash before the upgrade is still recovered after it.
      expect(messages.recoverInterrupted().map((m) => m.content)).toEqual(['Half a reply']);
      // Text written before full-text search existed is searchable after the upgrade.
      const hits = db.prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'lisbon'").all() as Array<{
        rowid: number;
      }>;
      expect(hits.map((h) => h.rowid)).toEqual([inA[0].id]);
    },
  },
  {
    version: 2,
    seed(db) {
      db.prepare(
        "INSERT INTO messages (conversation_id, role, content, created_at, origin) VALUES (?, 'user', 'Also book a kiwi-themed café', 3000, 'user')",
      ).run(B);
    },
    verify(db) {
      const hits = db
        .prepare(
          "SELECT m.conversation_id AS c FROM messages_fts f JOIN messages m ON m.id = f.rowid WHERE messages_fts MATCH 'kiwi'",
        )
        .all();
      expect(hits).toEqual([{ c: B }]);
    },
  },
  {
    version: 3,
    seed(db) {
      const list = db.prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, 4000)').run(A);
      const task = db.prepare(
        `INSERT INTO tasks (list_id, seq, title, status, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 4000, 4000)`,
      );
      const first = task.run(list.lastInsertRowid, 1, 'Book flights', 'completed', 0);
      const second = task.run(list.lastInsertRowid, 2, 'Find a hotel', 'in_progress', 1);
      db.prepare('INSERT INTO task_deps (task_id, blocked_by_id) VALUES (?, ?)').run(
        second.lastInsertRowid,
        first.lastInsertRowid,
      );
      db.prepare(
        "INSERT INTO task_events (task_id, at, actor, kind, after) VALUES (?, 4100, 'main', 'status', 'completed')",
      ).run(first.lastInsertRowid);
    },
    verify(db) {
      const tasks = db
        .prepare(
          'SELECT t.title, t.status FROM tasks t JOIN task_lists l ON l.id = t.list_id WHERE l.conversation_id = ? ORDER BY t.position',
        )
        .all(A);
      expect(tasks).toEqual([
        { title: 'Book flights', status: 'completed' },
        { title: 'Find a hotel', status: 'in_progress' },
      ]);
      expect(db.prepare('SELECT COUNT(*) AS n FROM task_deps').get()).toEqual({ n: 1 });
      // Lists written before the text index existed are in it after the upgrade.
      const listOfA = db.prepare('SELECT id FROM task_lists WHERE conversation_id = ?').pluck().get(A);
      expect(
        db.prepare('SELECT rowid FROM task_lists_fts WHERE task_lists_fts MATCH ?').pluck().all('"lisbon" "hotel"'),
      ).toEqual([listOfA]);
      // Foreign keys are on after the upgrade: deleting the conversation takes its tasks along.
      db.prepare('DELETE FROM conversations WHERE id = ?').run(A);
      for (const table of ['task_lists', 'tasks', 'task_deps', 'task_events']) {
        expect(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
      }
    },
  },
];

/** Ordinary tables (not SQLite's own, not FTS virtual or shadow tables). */
function plainTables(db: Db): string[] {
  const rows = db.prepare("SELECT name, type FROM pragma_table_list WHERE schema = 'main'").all() as Array<{
    name: string;
    type: string;
  }>;
  return rows
    .filter((r) => r.type === 'table' && !r.name.startsWith('sqlite_'))
    .map((r) => r.name)
    .sort();
}

function columns(db: Db, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>).map((c) => c.name);
}

function rowsOf(db: Db, table: string, cols: string[]): string[] {
  const list = cols.map((c) => `"${c}"`).join(', ');
  return (db.prepare(`SELECT ${list} FROM "${table}"`).all() as unknown[]).map((r) => JSON.stringify(r)).sort();
}

function schemaOf(db: Db) {
  return db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all();
}

const version = (db: Db) => db.pragma('user_version', { simple: true });

describe('database migrations', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });

  it('are numbered 1..N without gaps and each has a name', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBe(migrations.length);
    for (const m of migrations) expect(m.name.trim(), `migration ${m.version}`).not.toBe('');
  });

  it('end at the version databaseFile.ts names, which a start reads without loading them', () => {
    expect(LATEST_VERSION).toBe(migrations.at(-1)?.version);
  });

  it('create the latest schema in an empty directory, with WAL, foreign keys and a busy timeout', () => {
    const { db, file, movedAside } = openDatabase(path.join(dir.path, 'fresh'));
    try {
      expect(file).toBe(path.join(dir.path, 'fresh', DB_FILE));
      expect(movedAside).toBeNull();
      expect(version(db)).toBe(LATEST_VERSION);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      expect(plainTables(db)).toEqual(
        expect.arrayContaining(['conversations', 'messages', 'task_lists', 'tasks', 'task_deps', 'task_events']),
      );
      expect(columns(db, 'conversations')).toEqual(
        expect.arrayContaining(['id', 'title', 'created_at', 'updated_at', 'pinned', 'title_source']),
      );
      expect(columns(db, 'messages')).toEqual(
        expect.arrayContaining(['conversation_id', 'role', 'content', 'tool_calls', 'tool_call_id', 'status']),
      );
    } finally {
      db.close();
    }
  });

  it('leave an up-to-date database alone when it is opened again', () => {
    openDatabase(dir.path).db.close();
    const again = openDatabase(dir.path);
    try {
      expect(version(again.db)).toBe(LATEST_VERSION);
      expect(again.movedAside).toBeNull();
    } finally {
      again.db.close();
    }
  });

  const startVersions = Array.from({ length: LATEST_VERSION }, (_, v) => v);
  it.each(startVersions)('upgrade a database at version %i to the latest, keeping every row', (from) => {
    const old = openDatabase(dir.path, { targetVersion: from });
    expect(version(old.db)).toBe(from);
    const applicable = seeds.filter((s) => s.version <= from);
    for (const s of applicable) s.seed(old.db);
    const before = new Map(
      plainTables(old.db).map((t) => [t, { cols: columns(old.db, t), rows: rowsOf(old.db, t, columns(old.db, t)) }]),
    );
    old.db.close();

    const upgraded = openDatabase(dir.path);
    const fresh = openDatabase(path.join(dir.path, 'fresh'));
    try {
      expect(version(upgraded.db)).toBe(LATEST_VERSION);
      expect(upgraded.movedAside).toBeNull();
      expect(schemaOf(upgraded.db)).toEqual(schemaOf(fresh.db));
      expect(upgraded.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(upgraded.db.pragma('foreign_key_check')).toEqual([]);
      for (const [table, { cols, rows }] of before) {
        const now = columns(upgraded.db, table);
        const kept = cols.filter((c) => now.includes(c));
        expect(rowsOf(upgraded.db, table, kept), `rows of ${table}`).toEqual(
          rows
            .map((r) =>
              JSON.stringify(Object.fromEntries(kept.map((c) => [c, (JSON.parse(r) as Record<string, unknown>)[c]]))),
            )
            .sort(),
        );
      }
      for (const s of applicable) s.verify(upgraded.db);
    } finally {
      upgraded.db.close();
      fresh.db.close();
    }
  });

  it('keep "Review plans" off for conversations from before plan review, and let newer ones follow the default', () => {
    const planReview = migrations.find((m) => m.name === 'plan review')!.version;
    const old = openDatabase(dir.path, { targetVersion: planReview - 1 });
    old.db
      .prepare(
        'INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source) VALUES (?, ?, ?, ?, 0, ?)',
      )
      .run(A, 'Older', 1, 1, 'user');
    old.db.close();
    const upgraded = openDatabase(dir.path);
    try {
      upgraded.db
        .prepare(
          'INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source) VALUES (?, ?, ?, ?, 0, ?)',
        )
        .run(B, 'Newer', 2, 2, 'user');
      const plans = createPlanStore(upgraded.db);
      expect([plans.mode(A), plans.mode(B)]).toEqual(['off', null]);
    } finally {
      upgraded.db.close();
    }
  });

  it("move task history out of AUTOINCREMENT without handing an id out again, and let a task's deletion still clear its events", () => {
    const fourPages = migrations.find((m) => m.name === 'task history written in four pages')!.version;
    const old = openDatabase(dir.path, { targetVersion: fourPages - 1 });
    old.db
      .prepare(
        'INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source) VALUES (?, ?, 1, 1, 0, ?)',
      )
      .run(A, 'Kept', 'user');
    old.db
      .prepare(
        'INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source) VALUES (?, ?, 2, 2, 0, ?)',
      )
      .run(B, 'Deleted', 'user');
    const list = (conversation: string) =>
      Number(
        old.db.prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, 1)').run(conversation)
          .lastInsertRowid,
      );
    const [keptList, goneList] = [list(A), list(B)];
    const task = Number(
      old.db
        .prepare(
          "INSERT INTO tasks (list_id, seq, title, position, created_at, updated_at) VALUES (?, 1, 'Write it', 0, 1, 1)",
        )
        .run(keptList).lastInsertRowid,
    );
    const event = old.db.prepare(
      "INSERT INTO task_events (list_id, task_id, at, actor, kind) VALUES (?, ?, 1, 'model', 'created')",
    );
    const kept = Number(event.run(keptList, task).lastInsertRowid);
    event.run(goneList, null);
    event.run(goneList, null);
    old.db.prepare('INSERT INTO task_notice_marks (conversation_id, event_id) VALUES (?, ?)').run(A, kept);
    // The newest events go with their conversation, as they only ever do.
    old.db.prepare('DELETE FROM conversations WHERE id = ?').run(B);
    old.db.close();

    const upgraded = openDatabase(dir.path);
    try {
      const db = upgraded.db;
      expect(db.prepare('SELECT id, list_id, task_id FROM task_events').all()).toEqual([
        { id: kept, list_id: keptList, task_id: task },
      ]);
      expect(db.prepare("SELECT name FROM sqlite_sequence WHERE name = 'task_events'").all()).toEqual([]);
      expect(
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task_events'").all(),
      ).toEqual([{ name: 'task_events_by_list' }]);
      // A new event comes after every event (and every mark) that is left: ids only grow.
      const next = Number(
        db.prepare("INSERT INTO task_events (task_id, at, actor, kind) VALUES (?, 2, 'user', 'updated')").run(task)
          .lastInsertRowid,
      );
      expect(next).toBeGreaterThan(kept);
      expect(db.prepare('SELECT event_id FROM task_notice_marks WHERE conversation_id = ?').get(A)).toEqual({
        event_id: kept,
      });
      // The list's id still fills in for an event written with only its task.
      expect(db.prepare('SELECT list_id FROM task_events WHERE id = ?').get(next)).toEqual({ list_id: keptList });
      // A task deleted on its own, by any statement, leaves its history naming no task;
      // deleted with its conversation, it takes its list's history along.
      db.prepare('DELETE FROM tasks WHERE id = ?').run(task);
      expect(db.prepare('SELECT id, task_id FROM task_events ORDER BY id').all()).toEqual([
        { id: kept, task_id: null },
        { id: next, task_id: null },
      ]);
      db.prepare('DELETE FROM conversations WHERE id = ?').run(A);
      expect(db.prepare('SELECT COUNT(*) AS n FROM task_events').get()).toEqual({ n: 0 });
    } finally {
      upgraded.db.close();
    }
  });

  it('apply the pending steps in one transaction, so a failing step leaves the version the file had', () => {
    const db = new Database(path.join(dir.path, 'steps.db'));
    const steps: Migration[] = [
      { version: 1, name: 'ok', sql: 'CREATE TABLE kept (a INTEGER);' },
      { version: 2, name: 'ok too', sql: 'CREATE TABLE also (a INTEGER);' },
      { version: 3, name: 'broken', sql: 'CREATE TABLE half (a INTEGER); INSERT INTO missing_table VALUES (1);' },
    ];
    try {
      migrate(db, steps, 1);
      expect(version(db)).toBe(1);
      expect(() => migrate(db, steps, 3)).toThrow(/missing_table/);
      expect(version(db)).toBe(1);
      expect(plainTables(db)).toEqual(['kept']);
      // Nothing was lost: the next start migrates from there.
      migrate(db, steps, 2);
      expect(version(db)).toBe(2);
      expect(plainTables(db)).toEqual(['also', 'kept']);
    } finally {
      db.close();
    }
  });

  it('leave CHECK constraints enforced after a step that skipped one, when it fails too', () => {
    const db = new Database(path.join(dir.path, 'checks.db'));
    const steps: Migration[] = [
      { version: 1, name: 'a checked table', sql: "CREATE TABLE t (a TEXT CHECK (a IN ('x')));" },
      { version: 2, name: 'fails while skipping', sql: 'PRAGMA ignore_check_constraints = ON; SELECT * FROM nope;' },
    ];
    try {
      expect(() => migrate(db, steps, 2)).toThrow(/nope/);
      migrate(db, steps, 1);
      expect(() => db.prepare("INSERT INTO t VALUES ('y')").run()).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });

  it('return an updated file to the write-ahead log, synced as usual, with nothing of the journal left', () => {
    openDatabase(dir.path, { targetVersion: 27 }).db.close();
    const { db } = openDatabase(dir.path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      // NORMAL: the write-ahead log's own setting, not the FULL the update ran with.
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(fs.existsSync(path.join(dir.path, `${DB_FILE}-journal`))).toBe(false);
    } finally {
      db.close();
    }
  });

  it("keep migration 25's outcome column checked, though the step skips SQLite's scan when adding it", () => {
    const { db } = openDatabase(dir.path);
    try {
      expect(db.pragma('ignore_check_constraints', { simple: true })).toBe(0);
      const conversation = createConversationRepo(db).create('Outcomes');
      const insert = (outcome: string) =>
        db
          .prepare(
            "INSERT INTO messages (conversation_id, role, content, created_at, outcome) VALUES (?, 'tool', '', 0, ?)",
          )
          .run(conversation.id, outcome);
      expect(() => insert('held')).not.toThrow();
      expect(() => insert('bogus')).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });
});
