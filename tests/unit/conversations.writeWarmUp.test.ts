// The session's first commit made in idle time (writeWarmUp.ts): after a clean close the
// database has no WAL, and the first commit writes (and syncs) its header. The warm-up
// makes that commit and runs a message's insert, and leaves nothing changed: no message,
// nothing in the text index, the same schema version, the next message's id as before.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { DB_FILE } from '../../src/main/core/db/databaseFile';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { createWriteWarmUp } from '../../src/main/core/conversations/writeWarmUp';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let db: Db | null = null;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => {
  db?.close();
  removeDir(dir);
});

const wal = () => path.join(dir, `${DB_FILE}-wal`);
const walBytes = () => (fs.existsSync(wal()) ? fs.statSync(wal()).size : 0);

it('makes the first commit of a session and leaves the messages, the index and the schema as they were', () => {
  db = openDatabase(dir).db;
  const conversation = createConversationRepo(db).create('Notes');
  const messages = createMessageRepo(db, Date.now);
  messages.insert({ conversationId: conversation.id, role: 'user', content: 'first question' });
  const answer = messages.insert({ conversationId: conversation.id, role: 'assistant', content: 'an answer' });
  db.close();

  db = openDatabase(dir).db;
  const version = db.pragma('user_version', { simple: true });
  const rows = () => db!.prepare('SELECT id, content, chosen, shown FROM messages ORDER BY id').all();
  const before = rows();
  expect(walBytes()).toBe(0);

  // It names the conversation it wrote in: the next step builds that conversation's request.
  expect(createWriteWarmUp(db)()).toBe(conversation.id);

  // The WAL's header was written: a commit reached the file.
  expect(walBytes()).toBeGreaterThan(0);
  expect(rows()).toEqual(before);
  expect(db.prepare("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'warm*'").get()).toEqual({ n: 0 });
  expect(db.pragma('user_version', { simple: true })).toBe(version);
  // The conversation goes on where it was: the next message follows the answer, shown.
  const next = createMessageRepo(db, Date.now).insert({
    conversationId: conversation.id,
    role: 'user',
    content: 'more',
  });
  expect(next.id).toBe(answer.id + 1);
  expect(
    createMessageRepo(db, Date.now)
      .list(conversation.id, 0, 10)
      .items.map((m) => m.content),
  ).toEqual(['first question', 'an answer', 'more']);
});

it('still commits on a database without messages', () => {
  db = openDatabase(dir).db;
  db.close();
  db = openDatabase(dir).db;
  expect(createWriteWarmUp(db)()).toBeNull();
  expect(walBytes()).toBeGreaterThan(0);
  expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 });
});
