// The one-text-per-conversation store behind drafts and instructions, on a real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationTextStore, type ConversationTextTable } from '../../src/main/core/db/conversationText';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(dir).db;
});

afterEach(() => {
  db.close();
  removeDir(dir);
});

const tables: ConversationTextTable[] = [
  { table: 'drafts', column: 'content' },
  { table: 'conversation_instructions', column: 'text' },
];

describe.each(tables)('the text store over $table', (table) => {
  it('keeps one text per conversation, replaced by the next and forgotten when empty', () => {
    const stored = createConversationRepo(db, () => 1).create();
    const texts = createConversationTextStore(db, () => 5, table);
    expect(texts.get(stored.id)).toBe('');
    expect(texts.set(stored.id, 'first')).toBe(true);
    expect(texts.set(stored.id, 'second')).toBe(true);
    expect(texts.get(stored.id)).toBe('second');
    expect(texts.set(stored.id, '')).toBe(false);
    expect(texts.get(stored.id)).toBe('');
  });

  it('keeps the texts of stored conversations, and only the newest unsent one', () => {
    const stored = createConversationRepo(db, () => 1).create();
    const texts = createConversationTextStore(db, () => 5, table);
    texts.set(stored.id, 'kept');
    texts.set('unsent-1', 'abandoned');
    texts.set('unsent-2', 'the new one');
    expect([texts.get(stored.id), texts.get('unsent-1'), texts.get('unsent-2')]).toEqual(['kept', '', 'the new one']);
  });
});
