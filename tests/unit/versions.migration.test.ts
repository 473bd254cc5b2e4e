// Migration 13 turns every existing conversation into a straight line of versions: each
// message's parent is the message before it in its own conversation, all chosen and shown.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

it('gives the messages of a database from before versions a parent each, in their conversation', () => {
  const old = openDatabase(dir, { targetVersion: 12 }).db;
  const conversation = old.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, 0, 0)');
  conversation.run('a', 'A');
  conversation.run('b', 'B');
  const message = old.prepare(
    "INSERT INTO messages (conversation_id, role, content, created_at) VALUES (?, 'user', ?, 0)",
  );
  // Interleaved, as two conversations written at the same time are.
  for (const [id, text] of [
    ['a', 'a1'],
    ['b', 'b1'],
    ['a', 'a2'],
    ['a', 'a3'],
    ['b', 'b2'],
  ])
    message.run(id, text);
  old.close();

  const { db } = openDatabase(dir);
  const rows = db
    .prepare<[], { content: string; parent: string | null; chosen: number; shown: number }>(
      'SELECT m.content, p.content AS parent, m.chosen, m.shown FROM messages m LEFT JOIN messages p ON p.id = m.parent_id ORDER BY m.id',
    )
    .all();
  expect(rows).toEqual([
    { content: 'a1', parent: null, chosen: 1, shown: 1 },
    { content: 'b1', parent: null, chosen: 1, shown: 1 },
    { content: 'a2', parent: 'a1', chosen: 1, shown: 1 },
    { content: 'a3', parent: 'a2', chosen: 1, shown: 1 },
    { content: 'b2', parent: 'b1', chosen: 1, shown: 1 },
  ]);
  // The shown branch is listed from the partial index, and new messages follow it.
  const plan = db
    .prepare(
      "EXPLAIN QUERY PLAN SELECT * FROM messages WHERE conversation_id = 'a' AND shown = 1 ORDER BY id DESC LIMIT 5",
    )
    .all();
  expect(JSON.stringify(plan)).toContain('messages_shown');
  const messages = createMessageRepo(db);
  messages.insert({ conversationId: 'a', role: 'assistant', content: 'a4' });
  expect(messages.all('a').map((m) => m.content)).toEqual(['a1', 'a2', 'a3', 'a4']);
  db.close();
});
