// Search that does not scan: when the newest-first scan of a common word stops early,
// pinned conversations it did not reach are found by the same FTS5 query (on from where it
// stopped, filtered inside SQLite by the pinned conversations' message ids, a key lookup
// only for their rows) and it stops at a page of them; a snippet looks for its first hit
// before reading words. Checked against the order the sidebar promises, and by query plan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo, type ConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo, type MessageRepo } from '../../src/main/core/conversations/messageRepo';
import {
  MATCH_END,
  MATCH_START,
  PINNED_MATCHES_SQL,
  snippetOf,
} from '../../src/main/core/conversations/conversationSearch';
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

describe('pinned conversations in a search that stopped early', () => {
  it('come first, newest match first, page by page, though their matches are older than the scan reached', () => {
    const pinned: string[] = [];
    db.transaction(() => {
      for (let i = 0; i < 30; i++) {
        const c = conversations.create(`Pinned ${i}`);
        conversations.setPinned(c.id, true);
        // Every third one matches twice: its newest match is the one it is ranked by.
        messages.insert({ conversationId: c.id, role: 'user', content: `an early common thought ${i}` });
        if (i % 3 === 0) messages.insert({ conversationId: c.id, role: 'assistant', content: `common again ${i}` });
        pinned.push(c.id);
      }
      const quiet = conversations.create('Pinned without the word');
      conversations.setPinned(quiet.id, true);
      messages.insert({ conversationId: quiet.id, role: 'user', content: 'unrelated' });
      const busy = conversations.create('Busy');
      // Past the scan's budget of 2,000 rows: it stops inside Busy.
      for (let i = 0; i < 2100; i++) messages.insert({ conversationId: busy.id, role: 'user', content: `common ${i}` });
    })();
    const newestFirst = [...pinned].reverse();
    const first = conversations.list('common', 0, 10);
    expect(first.capped).toBe(true);
    expect(first.items.map((c) => c.id)).toEqual(newestFirst.slice(0, 10));
    expect(first.items.every((c) => c.match?.snippet?.includes(`${MATCH_START}common${MATCH_END}`))).toBe(true);
    expect(conversations.list('common', 10, 10).items.map((c) => c.id)).toEqual(newestFirst.slice(10, 20));
    const third = conversations.list('common', 20, 12).items.map((c) => c.title);
    expect(third).toEqual([...newestFirst.slice(20, 30).map((id) => conversations.get(id)!.title), 'Busy']);
  });

  it('keep their newest match when the scan found the pinned conversation already', () => {
    db.transaction(() => {
      const early = conversations.create('Early pinned');
      conversations.setPinned(early.id, true);
      messages.insert({ conversationId: early.id, role: 'user', content: 'common at the start' });
      const busy = conversations.create('Busy');
      for (let i = 0; i < 2100; i++) messages.insert({ conversationId: busy.id, role: 'user', content: `common ${i}` });
      // Found by the scan through this message; its older match must not replace it.
      messages.insert({ conversationId: early.id, role: 'user', content: 'common at the end' });
    })();
    const page = conversations.list('common', 0, 5);
    expect(page.items.map((c) => c.title)).toEqual(['Early pinned', 'Busy']);
    expect(page.items[0].match?.snippet).toBe(`${MATCH_START}common${MATCH_END} at the end`);
  });

  it('are read by the FTS5 index newest first, filtered by the pinned set read through indexes, nothing sorted or scanned', () => {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${PINNED_MATCHES_SQL}`)
      .all({ found: '[]', before: 100, match: '"common"*' }) as { detail: string }[];
    const steps = plan.map((row) => row.detail);
    // The index first, in its own order (DESC handled by FTS5): no sort afterwards.
    expect(steps[0]).toMatch(/^SCAN messages_fts VIRTUAL TABLE INDEX \d+:M/);
    expect(steps.some((step) => step.includes('TEMP B-TREE'))).toBe(false);
    // The pinned set: pinned conversations by their index, their shown messages by messages_shown.
    expect(steps).toContain('MATERIALIZE pinned');
    expect(steps).toContain('SEARCH c USING INDEX conversations_top_order (pinned=?)');
    expect(steps).toContain('SEARCH m USING COVERING INDEX messages_shown (conversation_id=? AND id<?)');
    // A message is read only for the rows that pass the filter, by its key.
    expect(steps.at(-1)).toBe('SEARCH m USING INTEGER PRIMARY KEY (rowid=?)');
    // Nothing else is scanned: only the index, the list of found ids and the materialized set.
    const scans = steps.filter((step) => step.startsWith('SCAN '));
    expect(scans).toEqual([steps[0], 'SCAN json_each VIRTUAL TABLE INDEX 1:', 'SCAN pinned']);
  });
});

describe('snippets read up to the first hit', () => {
  it('finds a hit at the end of a long message, with the words before it', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `Word${i}`);
    words.push('Tomatoes.');
    expect(snippetOf(words.join(' '), 'tomato', 2)).toBe(`…Word4998 Word4999 ${MATCH_START}Tomatoes${MATCH_END}.`);
  });

  it('folds words that start with an accent or a non-Latin letter, and marks every hit near the first', () => {
    expect(snippetOf('Une École, une école.', 'ecole')).toBe(
      `Une ${MATCH_START}École${MATCH_END}, une ${MATCH_START}école${MATCH_END}.`,
    );
    expect(snippetOf('Ελληνικά και ΕΛΛΗΝΙΚΑ', 'ελλην')).toBe(
      `${MATCH_START}Ελληνικά${MATCH_END} και ${MATCH_START}ΕΛΛΗΝΙΚΑ${MATCH_END}`,
    );
  });

  it('finds the first hit by searching the text, and still folds where the text is not ASCII', () => {
    // The ASCII search would find "then" first; "Théâtre" before it folds to a hit too.
    expect(snippetOf('Théâtre then the end', 'the', 1)).toBe(
      `${MATCH_START}Théâtre${MATCH_END} ${MATCH_START}then${MATCH_END}…`,
    );
    expect(snippetOf('On a Thé, the rest', 'the ', 1)).toBe(
      `…a ${MATCH_START}Thé${MATCH_END}, ${MATCH_START}the${MATCH_END}…`,
    );
    // A candidate followed by a non-ASCII letter is a longer word: not a hit for a whole word.
    expect(snippetOf('theé plan the plan', 'the plan', 0)).toBe(`…${MATCH_START}plan${MATCH_END}…`);
    // Words far before the hit are left out without reading the text before them.
    const long = `${'lorem ipsum '.repeat(50_000)}and the end`;
    expect(snippetOf(long, 'the', 2)).toBe(`…ipsum and ${MATCH_START}the${MATCH_END} end`);
    expect(snippetOf(`${'x'.repeat(5000)} y the`, 'the', 3)).toBe(
      `${'x'.repeat(5000)} y ${MATCH_START}the${MATCH_END}`,
    );
  });

  it('shows only the hit when asked for no words around it', () => {
    expect(snippetOf('one two needle three', 'needle', 0)).toBe(`…${MATCH_START}needle${MATCH_END}…`);
  });
});
