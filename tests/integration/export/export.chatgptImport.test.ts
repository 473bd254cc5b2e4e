// Importing a ChatGPT data export (conversations.json) through the real import call: the
// shown branch shown and the other branches as versions, notes for parts Stepwise cannot show, the app's limits, and the
// whole file or nothing. The fixture is hand-made from the documented format.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGE_MAX, TITLE_MAX } from '../../../src/shared/domain';
import { readChatGptExport } from '../../../src/main/core/export/chatgptImport';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { dumpDatabase, startCore, type TestCore } from './exportFixtures';

const FIXTURE = fs.readFileSync(path.join(__dirname, '../../fixtures/chatgpt-conversations.json'), 'utf8');
const fixture = () => JSON.parse(FIXTURE) as Array<Record<string, unknown>>;

let dir: string;
let app: TestCore;

beforeEach(() => {
  dir = makeTempDir('stepwise-chatgpt-');
  app = startCore(path.join(dir, 'data'));
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

function conversationRows() {
  return app.db
    .prepare<[], { id: string; title: string; created_at: number; updated_at: number }>(
      'SELECT id, title, created_at, updated_at FROM conversations ORDER BY updated_at DESC',
    )
    .all();
}

function messagesOf(conversationId: string) {
  return app.db
    .prepare<[string], { role: string; content: string; created_at: number }>(
      'SELECT role, content, created_at FROM messages WHERE conversation_id = ? AND shown = 1 ORDER BY id',
    )
    .all(conversationId);
}

const shownContents = (messages: ReadonlyArray<{ content: string; shown: boolean }>) =>
  messages.filter((m) => m.shown).map((m) => m.content);

describe('ChatGPT conversations.json import', () => {
  it('imports every readable conversation with its title and times, and says which it skipped and why', async () => {
    const result = await app.call('import:conversation', { content: FIXTURE });
    expect(result).toMatchObject({ kind: 'imported', title: 'Trip to Lisbon', count: 2 });
    if (result.kind !== 'imported') throw new Error('not imported');
    expect(result.skipped).toEqual([
      { title: 'Broken chat', reason: expect.stringMatching(/^it is not a readable ChatGPT conversation \(mapping: /) },
    ]);
    expect(conversationRows().map(({ title, created_at, updated_at }) => ({ title, created_at, updated_at }))).toEqual([
      { title: 'Trip to Lisbon', created_at: 1700000000250, updated_at: 1700000600500 },
      { title: 'Sourdough starter', created_at: 1690000000000, updated_at: 1690000100000 },
    ]);
    expect(conversationRows()[0]!.id).toBe(result.conversationId);
  });

  it('takes the branch ChatGPT shows, in order, with a note for each part it cannot show', async () => {
    const result = await app.call('import:conversation', { content: FIXTURE });
    if (result.kind !== 'imported') throw new Error('not imported');
    expect(messagesOf(result.conversationId)).toEqual([
      { role: 'system', content: 'You are a helpful travel assistant.', created_at: 1700000001000 },
      { role: 'user', content: 'Plan three days in Lisbon.', created_at: 1700000010000 },
      // The regenerated answer and the edited question (other branches) are versions, not shown.
      { role: 'assistant', content: 'Day 1: Alfama and the castle.', created_at: 1700000030000 },
      { role: 'user', content: '[image not imported]\n\nWhich tram is this?', created_at: 1700000040000 },
      { role: 'assistant', content: '[code interpreter input not imported]', created_at: 1700000050000 },
      { role: 'assistant', content: '[tool result not imported]', created_at: 1700000055000 },
      { role: 'assistant', content: 'That is tram 28.', created_at: 1700000060000 },
    ]);
  });

  it('imports the other branches as versions, which the conversation can switch to', async () => {
    const result = await app.call('import:conversation', { content: FIXTURE });
    if (result.kind !== 'imported') throw new Error('not imported');
    const id = result.conversationId;
    const page = await app.call('messages:list', { conversationId: id, limit: 50 });
    const reply = page.items.find((m) => m.content === 'Day 1: Alfama and the castle.')!;
    const question = page.items.find((m) => m.content.endsWith('Which tram is this?'))!;
    expect(reply.version).toEqual({ index: 2, count: 2 });
    expect(question.version).toEqual({ index: 2, count: 2 });
    // The edited question's first version brings its own answer back.
    await app.call('messages:showVersion', { conversationId: id, messageId: question.id, index: 1 });
    expect(
      messagesOf(id)
        .map((m) => m.content)
        .slice(-2),
    ).toEqual(['Which bus is this?', 'That is bus 737.']);
    await app.call('messages:showVersion', { conversationId: id, messageId: reply.id, index: 1 });
    expect(messagesOf(id).map((m) => m.content)).toEqual([
      'You are a helpful travel assistant.',
      'Plan three days in Lisbon.',
      'An answer that was regenerated away.',
    ]);
  });

  it('follows current_node, not the last child, when the shown branch is an older one', async () => {
    const data = fixture();
    (data[0] as { current_node: string }).current_node = 'a-a1-old';
    const { conversations } = await readChatGptExport(data, 0);
    expect(shownContents(conversations[0]!.messages)).toEqual([
      'You are a helpful travel assistant.',
      'Plan three days in Lisbon.',
      'An answer that was regenerated away.',
    ]);
  });

  it('without current_node, follows the newest child from the root', async () => {
    const data = fixture();
    delete (data[0] as { current_node?: string }).current_node;
    const { conversations } = await readChatGptExport(data, 0);
    expect(shownContents(conversations[0]!.messages).at(-1)).toBe('That is tram 28.');
  });

  it('skips a conversation whose tree loops or refers to a missing message', async () => {
    const looped = fixture()[1] as { mapping: Record<string, { parent: string | null }> };
    looped.mapping['b-root']!.parent = 'b-a1';
    const missing = fixture()[1] as { current_node: string; mapping: Record<string, { parent: string | null }> };
    missing.mapping['b-a1']!.parent = 'gone';
    const { conversations, skipped } = await readChatGptExport([looped, missing], 0);
    expect(conversations).toEqual([]);
    expect(skipped.map((s) => s.reason)).toEqual([
      'its message tree has a loop',
      'its message tree refers to a missing message (gone)',
    ]);
  });

  it('skips conversations over the limits, with the reason, and imports the rest', async () => {
    const data = fixture().slice(0, 2);
    const longTitle = { ...data[1], title: 'x'.repeat(TITLE_MAX + 1) };
    const longMessage = structuredClone(data[1]) as {
      title: string;
      mapping: Record<string, { message: { content: { parts: string[] } } | null }>;
    };
    longMessage.title = 'Long paste';
    longMessage.mapping['b-u1']!.message!.content.parts = ['y'.repeat(MESSAGE_MAX + 1)];
    const result = await app.call('import:conversation', {
      content: JSON.stringify([...data, longTitle, longMessage]),
    });
    if (result.kind !== 'imported') throw new Error('not imported');
    expect(result.count).toBe(2);
    expect(result.skipped).toEqual([
      { title: `${'x'.repeat(60)}…`, reason: `its title is ${TITLE_MAX + 1} characters (at most ${TITLE_MAX})` },
      { title: 'Long paste', reason: `a message of yours is ${MESSAGE_MAX + 1} characters (at most ${MESSAGE_MAX})` },
    ]);
    expect(conversationRows().map((c) => c.title)).toEqual(['Trip to Lisbon', 'Sourdough starter']);
  });

  it('refuses a file where nothing is readable, and writes nothing', async () => {
    const before = dumpDatabase(app.db);
    const error = await app.fail('import:conversation', { content: JSON.stringify([fixture()[2]]) });
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(
      /^No conversation of this ChatGPT export could be imported \(“Broken chat”: it is not a readable/,
    );
    expect(dumpDatabase(app.db)).toEqual(before);
  });

  it('writes the whole file or nothing: a failure on the last message leaves every table as it was', async () => {
    // Written in slices under a hidden staging row, dropped on failure: ids handed out
    // (sqlite_sequence) and the full-text index's pages may differ, what they hold does not.
    const held = () =>
      Object.fromEntries(
        Object.entries(dumpDatabase(app.db)).filter(([name]) => name !== 'sqlite_sequence' && !/_fts($|_)/.test(name)),
      );
    const found = (word: string) =>
      app.db.prepare('SELECT COUNT(*) AS n FROM messages_fts WHERE messages_fts MATCH ?').get(word) as { n: number };
    const before = held();
    app.db.exec(
      "CREATE TEMP TRIGGER fail_last BEFORE INSERT ON messages WHEN NEW.content = 'Once a day at room temperature.' BEGIN SELECT RAISE(ABORT, 'disk says no'); END",
    );
    const error = await app.fail('import:conversation', { content: FIXTURE });
    expect(error).toEqual({
      code: 'internal',
      message: 'Stepwise could not store the imported conversations (disk says no). Nothing was imported.',
    });
    app.db.exec('DROP TRIGGER fail_last');
    expect(held()).toEqual(before);
    expect(found('Lisbon')).toEqual({ n: 0 });
  });

  it('sends a JSON array that is not a ChatGPT export to the Stepwise reader, which refuses it as before', async () => {
    const error = await app.fail('import:conversation', { content: '[1, 2, 3]' });
    expect(error.message).toMatch(/^This file is not a Stepwise conversation export: it is not a JSON object/);
  });
});
