// Token counts kept in the messages table (migration 27): a message is counted once, after
// it is written (in the background), and a later process finds the count instead of
// tokenizing the history again. The counter after the "restart" may count nothing exactly
// (exactPerTask 0: an uncounted text gets only its estimate), so an exact figure can only
// come from the stored count.
import { countTokens } from 'gpt-tokenizer';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { createTokenCounter, estimateTokens } from '../../src/main/core/context/tokenCount';
import { createStoredTokens } from '../../src/main/core/conversations/storedTokens';
import { loadHistory } from '../../src/main/core/llm/compactHistory';
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

const QUESTION = 'Could you list the **three** steps, with `code` and a [link](https://example.com)?';
const ANSWER = '1. Parse the input.\n2. Check it against the schema — every field.\n3. Write the result to disk.';

function open(exactPerTask?: number) {
  db = openDatabase(dir).db;
  const counter = createTokenCounter({ exactPerTask });
  const stored = createStoredTokens(db, counter);
  const messages = createMessageRepo(db, Date.now, undefined, stored.counts);
  return { db, counter, stored, messages };
}

const tokensColumn = (d: Db) =>
  d.prepare('SELECT content, tokens FROM messages ORDER BY id').all() as { content: string; tokens: number | null }[];

it('keeps the token counts across a restart, so the history is not counted again', () => {
  // The estimate differs from the count, so the figures below tell which one was used.
  expect(estimateTokens(ANSWER)).not.toBe(countTokens(ANSWER));
  const first = open();
  const { id } = createConversationRepo(first.db).create('Steps');
  first.messages.insert({ conversationId: id, role: 'user', content: QUESTION });
  const reply = first.messages.insert({ conversationId: id, role: 'assistant', content: '', status: 'streaming' });
  first.messages.update(reply.id, { content: ANSWER.slice(0, 20) });
  // A streaming reply has no count until it is finished.
  expect(tokensColumn(first.db)[1].tokens).toBeNull();
  first.messages.update(reply.id, { content: ANSWER, status: 'complete' });
  first.stored.flush();
  expect(tokensColumn(first.db)).toEqual([
    { content: QUESTION, tokens: countTokens(QUESTION) },
    { content: ANSWER, tokens: countTokens(ANSWER) },
  ]);
  first.stored.dispose();
  first.db.close();

  const second = open(0);
  const { history } = loadHistory(second.messages, id, { maxTokens: 100_000, counter: second.counter });
  expect(history.map((m) => m.content)).toEqual([QUESTION, ANSWER]);
  expect(second.counter.text(ANSWER)).toBe(countTokens(ANSWER));
  expect(second.counter.text(QUESTION)).toBe(countTokens(QUESTION));
  expect(second.stored.pending()).toBe(0);
});

it('counts again a message whose text changed, and a message from before the counts were kept', () => {
  const first = open();
  const { id } = createConversationRepo(first.db).create('Edits');
  const note = first.messages.insert({ conversationId: id, role: 'user', content: QUESTION });
  first.stored.flush();
  first.messages.update(note.id, { content: ANSWER });
  first.stored.flush();
  expect(tokensColumn(first.db)).toEqual([{ content: ANSWER, tokens: countTokens(ANSWER) }]);
  // As a database of the last release has them: no counts.
  first.db.prepare('UPDATE messages SET tokens = NULL').run();
  first.stored.dispose();
  first.db.close();

  const second = open(0);
  // Read without a count: the estimate for now, the count stored in the background.
  loadHistory(second.messages, id, { maxTokens: 100_000, counter: second.counter });
  expect(second.stored.pending()).toBe(1);
  second.stored.flush();
  expect(tokensColumn(second.db)).toEqual([{ content: ANSWER, tokens: countTokens(ANSWER) }]);
});
