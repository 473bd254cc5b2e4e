// The sidebar search after the move to FTS5 for titles and the streaming-aware message
// index: results stay correct, the index stays consistent, common words are capped.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo, type ConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { MATCH_END, MATCH_START, SEARCH_CAP, snippetOf } from '../../src/main/core/conversations/conversationSearch';
import { createMessageRepo, type MessageRepo } from '../../src/main/core/conversations/messageRepo';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let db: Db;
let conversations: ConversationRepo;
let messages: MessageRepo;
let clock = 0;

beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(dir).db;
  clock = 1_000;
  conversations = createConversationRepo(db, () => ++clock);
  messages = createMessageRepo(db, () => ++clock);
});

afterEach(() => {
  db.close();
  removeDir(dir);
});

/** FTS5's own check that an external-content index matches its table. */
function indexIsConsistent(): boolean {
  db.prepare("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)").run();
  return true;
}

const ids = (query: string) => conversations.list(query, 0, 100).items.map((c) => c.id);

describe('conversation search', () => {
  it('finds a message by a word, with a snippet that marks the match and names the message', () => {
    const c = conversations.create('Kitchen');
    messages.insert({ conversationId: c.id, role: 'user', content: 'Where do I keep the tomatoes?' });
    const answer = messages.insert({
      conversationId: c.id,
      role: 'assistant',
      content: 'Keep ripe tomatoes on the counter, away from sunlight, and eat them within a few days.',
    });
    const [hit] = conversations.list('tomato', 0, 10).items;
    expect(hit.id).toBe(c.id);
    // The newest matching message is the one a click jumps to.
    expect(hit.match?.messageId).toBe(answer.id);
    expect(hit.match?.snippet).toContain(`${MATCH_START}tomatoes${MATCH_END}`);
  });

  it('matches titles as substrings, case- and accent-insensitively, even under three characters', () => {
    const cafe = conversations.create('Café Crème recipes');
    const pct = conversations.create('50% off');
    conversations.create('Unrelated');
    expect(ids('creme')).toEqual([cafe.id]);
    expect(ids('RECIPE')).toEqual([cafe.id]);
    expect(ids('50')).toEqual([pct.id]);
    expect(ids('%')).toEqual([pct.id]);
    // A title match has no message snippet.
    expect(conversations.list('creme', 0, 10).items[0].match).toBeUndefined();
  });

  it('finds nothing, without an error, for text holding a NUL character', () => {
    const c = conversations.create('Tomato\u0000 plans');
    messages.insert({ conversationId: c.id, role: 'user', content: 'Where do I keep the tomatoes?' });
    for (const query of ['tom\u0000', 'Tomato\u0000 plans', '\u0000"', 'keep \u0000tomatoes', '\u0000']) {
      expect(conversations.list(query, 0, 10).items).toEqual([]);
    }
    expect(ids('tomatoes')).toEqual([c.id]);
  });

  it('follows renames and deletions', () => {
    const c = conversations.create('Old name');
    conversations.rename(c.id, 'Brand new name');
    expect(ids('old name')).toEqual([]);
    expect(ids('brand new')).toEqual([c.id]);
    conversations.delete(c.id);
    expect(ids('brand new')).toEqual([]);
  });

  it('indexes a streaming reply once it stops streaming, and keeps the index consistent', () => {
    const c = conversations.create('Chat');
    const reply = messages.insert({ conversationId: c.id, role: 'assistant', content: '', status: 'streaming' });
    messages.update(reply.id, { content: 'partial avocado' });
    expect(ids('avocado')).toEqual([]);
    messages.update(reply.id, { content: 'partial avocado and mango', status: 'complete' });
    expect(ids('avocado')).toEqual([c.id]);
    expect(ids('mango')).toEqual([c.id]);
    messages.update(reply.id, { content: 'only papaya now' });
    expect(ids('mango')).toEqual([]);
    expect(ids('papaya')).toEqual([c.id]);
    expect(indexIsConsistent()).toBe(true);
    messages.truncateFrom(c.id, reply.id);
    expect(ids('papaya')).toEqual([]);
    expect(indexIsConsistent()).toBe(true);
  });

  it('a reply interrupted by a crash becomes searchable when it is recovered', () => {
    const c = conversations.create('Chat');
    const reply = messages.insert({ conversationId: c.id, role: 'assistant', content: '', status: 'streaming' });
    messages.update(reply.id, { content: 'half a sentence about kiwis' });
    messages.recoverInterrupted();
    expect(ids('kiwis')).toEqual([c.id]);
    expect(indexIsConsistent()).toBe(true);
  });

  it('orders results pinned first, then by their newest match, and caps a word found everywhere', () => {
    db.transaction(() => {
      for (let i = 0; i < SEARCH_CAP + 50; i++) {
        const c = conversations.create(`Note ${i}`);
        messages.insert({ conversationId: c.id, role: 'user', content: `common word ${i === 7 ? 'zebra' : i}` });
      }
    })();
    const first = conversations.list('', SEARCH_CAP + 49, 1).items[0];
    conversations.setPinned(first.id, true);
    const found = conversations.list('common', 0, 5);
    expect(found.capped).toBe(true);
    expect(found.total).toBe(SEARCH_CAP);
    expect(found.items[0].id).toBe(first.id);
    expect(found.items[1].title).toBe(`Note ${SEARCH_CAP + 49}`);
    expect(found.items[2].title).toBe(`Note ${SEARCH_CAP + 48}`);
    const rare = conversations.list('zebra', 0, 5);
    expect(rare).toMatchObject({ total: 1, capped: false });
    expect(rare.items.map((c) => c.title)).toEqual(['Note 7']);
    // A page deeper in the results continues the same order.
    const next = conversations.list('common', 5, 5);
    expect(next.items.map((c) => c.title)).toEqual([45, 44, 43, 42, 41].map((n) => `Note ${SEARCH_CAP + n}`));
  });

  it('reads a bounded part of one conversation full of matches, and pinned matches still come first', () => {
    const older = conversations.create('Older');
    messages.insert({ conversationId: older.id, role: 'user', content: 'a common word long ago' });
    conversations.setPinned(older.id, true);
    const busy = conversations.create('Busy');
    db.transaction(() => {
      for (let i = 0; i < 5000; i++)
        messages.insert({ conversationId: busy.id, role: 'user', content: `common line ${i}` });
    })();
    const found = conversations.list('common', 0, 10);
    // The scan stopped inside Busy's messages: the count is an estimate, said to be one.
    expect(found.capped).toBe(true);
    expect(found.items.map((c) => c.title)).toEqual(['Older', 'Busy']);
    expect(found.items[1].match?.snippet).toContain(`${MATCH_START}common${MATCH_END} line 4999`);
  });
});

describe('search snippets', () => {
  it('marks the matched words, folding case and accents, the last word as a prefix', () => {
    expect(snippetOf('Le Café est ouvert. Les tomates mûrissent.', 'cafe tomat')).toBe(
      `Le ${MATCH_START}Café${MATCH_END} est ouvert. Les ${MATCH_START}tomates${MATCH_END} mûrissent.`,
    );
  });

  it('cuts a long message to the words around the first match', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    words[50] = 'needle';
    const snippet = snippetOf(words.join(' '), 'needle', 3)!;
    expect(snippet).toBe(`…w47 w48 w49 ${MATCH_START}needle${MATCH_END} w51 w52 w53…`);
  });

  it('has nothing to show when no word matches', () => {
    expect(snippetOf('nothing here', 'absent')).toBeNull();
    expect(snippetOf('anything', '!!!')).toBeNull();
  });
});
