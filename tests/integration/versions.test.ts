// Message versions through the real core, SQLite and the openai SDK against the scripted
// server: editing an earlier message and regenerating an earlier reply add versions the
// model never sees together; switching brings each branch back with what followed it (its
// task list included, see versions.branchLists.test.ts); search, status, exports and
// import see the shown branch (JSON keeps every version); and bad requests are refused.
import { describe, expect, it } from 'vitest';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import { parseConversationExport } from '../../src/main/core/export/conversationImport';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

const contents = (id: string) => h.messages(id).map((m) => m.content);
const lastUserTurn = () => server.streamRequests().at(-1)!.body.messages.slice(1);

/** Q1 → A1 → Q2 → A2. */
async function twoTurns() {
  server.push({ text: 'A1' }, { text: 'A2' });
  const conversation = await h.newConversation('Versions');
  await h.sendAndWait(conversation.id, 'Q1');
  await h.sendAndWait(conversation.id, 'Q2');
  return { id: conversation.id, messages: h.messages(conversation.id) };
}

async function exportJson(conversationId: string) {
  const result = await h.call('export:conversation', { conversationId, format: 'json' });
  if (result.kind !== 'download') throw new Error('expected a download');
  return result.text;
}

describe('edit any message', () => {
  it('makes a new version of an earlier message, sent alone, and switching brings each branch back', async () => {
    const { id, messages } = await twoTurns();
    const [q1] = messages;
    server.push({ text: 'A1 edited' });
    const from = h.events.length;
    const edited = await h.call('chat:edit', { conversationId: id, messageId: q1.id, content: 'Q1 edited' });
    await h.waitIdle(id, from);
    expect(edited).toMatchObject({ content: 'Q1 edited', version: { index: 2, count: 2 } });
    expect(h.eventsOf('messages:removed').at(-1)).toEqual({ conversationId: id, fromId: q1.id });
    expect(contents(id)).toEqual(['Q1 edited', 'A1 edited']);
    // The model saw the new branch only.
    expect(lastUserTurn()).toEqual([{ role: 'user', content: 'Q1 edited' }]);

    const shown = await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect(shown).toMatchObject({ id: q1.id, version: { index: 1, count: 2 } });
    expect(h.eventsOf('messages:switched').at(-1)).toEqual({ conversationId: id, messageId: q1.id });
    expect(contents(id)).toEqual(['Q1', 'A1', 'Q2', 'A2']);
    const page = await h.call('messages:list', { conversationId: id, limit: 10 });
    expect(page.items.map((m) => m.content)).toEqual(['Q1', 'A1', 'Q2', 'A2']);

    // The conversation goes on from the branch shown.
    server.push({ text: 'A3' });
    await h.sendAndWait(id, 'Q3');
    expect(lastUserTurn().map((m) => m.content)).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3']);

    await h.call('messages:showVersion', { conversationId: id, messageId: q1.id, index: 2 });
    expect(contents(id)).toEqual(['Q1 edited', 'A1 edited']);
    await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect(contents(id)).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3', 'A3']);
  });

  it('an edit leaves the open list with the old branch (in the history), and switching back brings it', async () => {
    const { id, messages } = await twoTurns();
    await h.call('tasks:add', { conversationId: id, title: 'Pack' });
    expect((await h.call('tasks:get', { conversationId: id })).list).not.toBeNull();
    server.push({ text: 'Fresh' });
    const from = h.events.length;
    const edited = await h.call('chat:edit', { conversationId: id, messageId: messages[2].id, content: 'Q2 again' });
    await h.waitIdle(id, from);
    // The list was added after Q2 was sent: the new branch starts without it.
    expect((await h.call('tasks:get', { conversationId: id })).list).toBeNull();
    expect(h.core.tasks.history(id).map((list) => list.tasks.map((t) => t.title))).toEqual([['Pack']]);
    await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect((await h.call('tasks:get', { conversationId: id })).list!.tasks.map((t) => t.title)).toEqual(['Pack']);
  });

  it('refuses what cannot be edited or shown, and anything while a reply runs', async () => {
    const { id, messages } = await twoTurns();
    const [q1, a1] = messages;
    expect(await h.callError('chat:edit', { conversationId: id, messageId: a1.id, content: 'x' })).toMatchObject({
      code: 'conflict',
    });
    expect(await h.callError('chat:regenerate', { conversationId: id, messageId: q1.id })).toMatchObject({
      code: 'conflict',
    });
    expect(await h.callError('messages:showVersion', { conversationId: id, messageId: q1.id, index: 2 })).toMatchObject(
      {
        code: 'invalid_request',
        message: 'This message has 1 versions; there is no version 2.',
      },
    );
    server.push({ text: 'new' });
    const from = h.events.length;
    const edited = await h.call('chat:edit', { conversationId: id, messageId: q1.id, content: 'Q1b' });
    await h.waitIdle(id, from);
    // The old version is no longer on the shown branch: it cannot be edited from a stale view.
    expect(await h.callError('chat:edit', { conversationId: id, messageId: q1.id, content: 'x' })).toMatchObject({
      code: 'conflict',
    });
    server.push({ text: 'slow', chunkDelayMs: 200 });
    await h.call('messages:send', { conversationId: id, content: 'more' });
    expect(
      await h.callError('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 }),
    ).toMatchObject({ code: 'conflict' });
    await h.call('chat:stop', { conversationId: id });
  });
});

describe('regenerate any reply', () => {
  it('keeps the old reply as version 1, and the later messages follow it', async () => {
    const { id, messages } = await twoTurns();
    const a1 = messages[1];
    server.push({ text: 'A1 again' });
    const from = h.events.length;
    await h.call('chat:regenerate', { conversationId: id, messageId: a1.id });
    await h.waitIdle(id, from);
    expect(contents(id)).toEqual(['Q1', 'A1 again']);
    expect(lastUserTurn()).toEqual([{ role: 'user', content: 'Q1' }]);
    const again = h.messages(id)[1];
    expect(h.core.messages.get(again.id)!.version).toEqual({ index: 2, count: 2 });
    await h.call('messages:showVersion', { conversationId: id, messageId: again.id, index: 1 });
    expect(contents(id)).toEqual(['Q1', 'A1', 'Q2', 'A2']);
    // Without a message id: the last reply, as before.
    server.push({ text: 'A2 again' });
    const next = h.events.length;
    await h.call('chat:regenerate', { conversationId: id });
    await h.waitIdle(id, next);
    expect(contents(id)).toEqual(['Q1', 'A1', 'Q2', 'A2 again']);
  });

  it('a regeneration stopped before it wrote anything shows the old reply again', async () => {
    const { id } = await twoTurns();
    // The loop waits before its first request until the test has stopped it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.core.tools.addPreparer(() => held);
    const from = h.events.length;
    await h.call('chat:regenerate', { conversationId: id });
    const stopped = h.call('chat:stop', { conversationId: id });
    release();
    await stopped;
    await h.waitForEvent('messages:switched', (e) => e.conversationId === id, { from });
    expect(contents(id)).toEqual(['Q1', 'A1', 'Q2', 'A2']);
  });

  it('the error banner follows the branch: a failure on one version is not shown on another', async () => {
    const { id, messages } = await twoTurns();
    server.push({ status: 400, errorMessage: 'no more' });
    const from = h.events.length;
    await h.call('chat:regenerate', { conversationId: id, messageId: messages[3].id });
    const failed = await h.waitIdle(id, from);
    expect(failed.error).not.toBeNull();
    const reply = h.messages(id).at(-1)!;
    await h.call('messages:showVersion', { conversationId: id, messageId: reply.id, index: 1 });
    expect((await h.call('chat:status', { conversationId: id })).error).toBeNull();
  });
});

describe('what reads the conversation', () => {
  it('search finds the shown versions only', async () => {
    const { id, messages } = await twoTurns();
    server.push({ text: 'A1 edited' });
    const from = h.events.length;
    const edited = await h.call('chat:edit', {
      conversationId: id,
      messageId: messages[0].id,
      content: 'Marmalade question',
    });
    await h.waitIdle(id, from);
    const search = async (query: string) =>
      (await h.call('conversations:list', { query, offset: 0, limit: 10 })).items.length;
    expect(await search('Marmalade')).toBe(1);
    expect(await search('Q2')).toBe(0);
    await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect(await search('Marmalade')).toBe(0);
    expect(await search('Q2')).toBe(1);
  });

  it('JSON export keeps every version and imports as the same tree; Markdown writes the shown branch', async () => {
    const { id, messages } = await twoTurns();
    server.push({ text: 'A1 edited' });
    const from = h.events.length;
    await h.call('chat:edit', { conversationId: id, messageId: messages[0].id, content: 'Q1 edited' });
    await h.waitIdle(id, from);
    const text = await exportJson(id);
    const file = parseConversationExport(text);
    expect(file.messages.map((m) => [m.id, m.content, m.parent, m.shown])).toEqual([
      [1, 'Q1', null, false],
      [2, 'A1', 1, false],
      [3, 'Q2', 2, false],
      [4, 'A2', 3, false],
      [5, 'Q1 edited', null, true],
      [6, 'A1 edited', 5, true],
    ]);

    const imported = await h.call('import:conversation', { content: text });
    if (imported.kind !== 'imported') throw new Error('not imported');
    expect(contents(imported.conversationId)).toEqual(['Q1 edited', 'A1 edited']);
    const strip = (json: string) => {
      const data = JSON.parse(json) as { exportedAt: unknown; conversation: { id: unknown; updatedAt: unknown } };
      return { ...data, exportedAt: null, conversation: { ...data.conversation, id: null, updatedAt: null } };
    };
    expect(strip(await exportJson(imported.conversationId))).toEqual(strip(text));
    const copy = h.messages(imported.conversationId)[0];
    await h.call('messages:showVersion', { conversationId: imported.conversationId, messageId: copy.id, index: 1 });
    expect(contents(imported.conversationId)).toEqual(['Q1', 'A1', 'Q2', 'A2']);

    const md = await h.call('export:conversation', { conversationId: id, format: 'md' });
    if (md.kind !== 'download') throw new Error('expected a download');
    expect(md.text).toContain('Q1 edited');
    expect(md.text).not.toContain('Q2');
  });

  it('a straight conversation exports without version fields, as before', async () => {
    const { id } = await twoTurns();
    const file = JSON.parse(await exportJson(id)) as { messages: Array<Record<string, unknown>> };
    for (const message of file.messages) expect(Object.keys(message)).not.toContain('parent');
  });
});
