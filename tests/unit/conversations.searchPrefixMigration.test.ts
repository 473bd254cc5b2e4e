// Migration 29 rebuilds the message index with a prefix index (two and three letters), so
// a search-as-you-type query like "the"* reads the index instead of merging every term's
// doclist first (issue 39). The rebuilt index holds the same rows (user and assistant
// messages that are not streaming), and the triggers keep it in step afterwards.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

it('rebuilds the message index with a prefix index, the same rows in it', () => {
  const old = openDatabase(dir, { targetVersion: 28 }).db;
  old.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c', 'C', 0, 0)").run();
  const message = old.prepare(
    "INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES ('c', ?, ?, ?, 0)",
  );
  message.run('user', 'the theory', 'complete');
  message.run('assistant', 'then there', 'complete');
  message.run('tool', 'the tool output', 'complete');
  message.run('assistant', 'the stream', 'streaming');
  message.run('user', 'nothing here', 'complete');
  old.close();

  const { db } = openDatabase(dir);
  try {
    const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'messages_fts'").pluck().get() as string;
    expect(sql).toMatch(/prefix = '2 3'/);
    // Built with a larger buffer of pending terms, which is then set back to FTS5's 1 MB.
    expect(db.prepare("SELECT v FROM messages_fts_config WHERE k = 'hashsize'").pluck().get()).toBe(1048576);
    const find = (query: string) =>
      db
        .prepare<[string], { content: string }>(
          'SELECT m.content FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ? ORDER BY m.id',
        )
        .all(query)
        .map((row) => row.content);
    expect(find('"th"*')).toEqual(['the theory', 'then there']);
    expect(find('"the"*')).toEqual(['the theory', 'then there']);
    expect(find('"ther"*')).toEqual(['then there']);
    expect(find('"the"')).toEqual(['the theory']);
    // The triggers still keep it in step: a new message enters, a finished stream too.
    db.prepare(
      "INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES ('c', 'user', 'thesis', 'complete', 0)",
    ).run();
    db.prepare("UPDATE messages SET status = 'complete' WHERE content = 'the stream'").run();
    expect(find('"the"*')).toEqual(['the theory', 'then there', 'the stream', 'thesis']);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')").run();
  } finally {
    db.close();
  }
});
