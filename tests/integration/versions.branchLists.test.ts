// Each branch of the message tree keeps its own task list (tasks/branchLists.ts): an edit
// starts the new branch with the list as of the edited message, switching versions
// switches the list, the task tools and <taskList> see the shown branch's list only, a
// regeneration stopped before it wrote anything gives the old list back, and exports keep
// every branch's list while the Markdown of the shown branch carries its own.
import { describe, expect, it } from 'vitest';
import { type ChatBody, type ScriptedServer, type Turn } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import { parseConversationExport } from '../../src/main/core/export/conversationImport';

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

const P = 'pending';
const I = 'in_progress';
const C = 'completed';

function manage(titles: string[], statuses: string[]): Turn {
  const todoList = titles.map((title, i) => ({ id: i + 1, title, status: statuses[i] }));
  return { toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] };
}

const A = ['Pack', 'Travel', 'Unpack'];
const B = ['Write draft', 'Review'];

const shown = async (id: string) =>
  (await h.call('tasks:get', { conversationId: id })).list?.tasks.map((t) => [t.title, t.status]) ?? null;
const pushed = (id: string) =>
  h
    .eventsOf('tasks:changed')
    .filter((e) => e.conversationId === id)
    .at(-1)
    ?.list?.tasks.map((t) => t.title) ?? null;
const blockOf = (body: ChatBody) => /<taskList>[\s\S]*?<\/taskList>/.exec(body.messages[0].content ?? '')?.[0] ?? null;

/** Q1 → plan A (task 1 started) · Q2 → task 1 done, task 2 started · Q3 → a reply. */
async function threeTurns() {
  server.push(
    manage(A, [I, P, P]),
    { text: 'Planned.' },
    manage(A, [C, I, P]),
    { text: 'Packed.' },
    { text: 'On the way.' },
  );
  const { id } = await h.newConversation('Trip');
  await h.sendAndWait(id, 'Q1');
  await h.sendAndWait(id, 'Q2');
  await h.sendAndWait(id, 'Q3');
  return { id, messages: h.messages(id) };
}

async function edit(id: string, messageId: number, content: string) {
  const from = h.events.length;
  const message = await h.call('chat:edit', { conversationId: id, messageId, content });
  await h.waitIdle(id, from);
  return message;
}

describe('message versions and task lists', () => {
  it('edit message 1 of 3: the new branch has its own list; switching back brings the old list', async () => {
    const { id, messages } = await threeTurns();
    expect(await shown(id)).toEqual([
      ['Pack', C],
      ['Travel', I],
      ['Unpack', P],
    ]);

    server.push(manage(B, [I, P]), { text: 'Drafting.' });
    const edited = await edit(id, messages[0].id, 'Q1 about writing');
    // Before message 1 there was no list: the model's new plan is the branch's list, and its
    // requests never saw the old one.
    expect(await shown(id)).toEqual([
      ['Write draft', I],
      ['Review', P],
    ]);
    expect(pushed(id)).toEqual(B);
    expect(blockOf(server.streamRequests().at(-2)!.body)).toBeNull();

    await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect(await shown(id)).toEqual([
      ['Pack', C],
      ['Travel', I],
      ['Unpack', P],
    ]);
    expect(pushed(id)).toEqual(A);
    // The task tools act on the shown branch's list only.
    server.push(manage(A, [C, C, I]), { text: 'Arrived.' });
    await h.sendAndWait(id, 'Q4');
    expect(blockOf(server.streamRequests().at(-2)!.body)).toContain('- [in_progress] (2) Travel');
    expect(await shown(id)).toEqual([
      ['Pack', C],
      ['Travel', C],
      ['Unpack', I],
    ]);

    await h.call('messages:showVersion', { conversationId: id, messageId: messages[0].id, index: 2 });
    expect(await shown(id)).toEqual([
      ['Write draft', I],
      ['Review', P],
    ]);
    await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect(await shown(id)).toEqual([
      ['Pack', C],
      ['Travel', C],
      ['Unpack', I],
    ]);
    // The sidebar badge follows the shown branch.
    expect(h.core.tasks.badges([id]).get(id)).toEqual({ done: 2, total: 3 });
  });

  it('edit message 2: the new branch starts with the list as of that message, and the model sees it', async () => {
    const { id, messages } = await threeTurns();
    const q2 = messages.find((m) => m.content === 'Q2')!;
    server.push({ text: 'Let us redo that.' });
    const edited = await edit(id, q2.id, 'Q2 differently');
    // As it stood when Q2 was sent: task 1 in progress, nothing completed yet.
    expect(await shown(id)).toEqual([
      ['Pack', I],
      ['Travel', P],
      ['Unpack', P],
    ]);
    expect(blockOf(server.streamRequests().at(-1)!.body)).toContain('- [in_progress] (1) Pack');

    await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect(await shown(id)).toEqual([
      ['Pack', C],
      ['Travel', I],
      ['Unpack', P],
    ]);
  });

  it('a user edit of the list stays on its branch', async () => {
    const { id, messages } = await threeTurns();
    const q3 = messages.find((m) => m.content === 'Q3')!;
    server.push({ text: 'Other way.' });
    const edited = await edit(id, q3.id, 'Q3 again');
    await h.call('tasks:update', { conversationId: id, taskId: 3, patch: { title: 'Unpack slowly' } });
    await h.call('messages:showVersion', { conversationId: id, messageId: edited.id, index: 1 });
    expect(await shown(id)).toEqual([
      ['Pack', C],
      ['Travel', I],
      ['Unpack', P],
    ]);
    await h.call('messages:showVersion', { conversationId: id, messageId: q3.id, index: 2 });
    expect(await shown(id)).toEqual([
      ['Pack', C],
      ['Travel', I],
      ['Unpack slowly', P],
    ]);
  });

  it('a regenerated reply starts from the list as of its question; a stopped one gives the old list back', async () => {
    server.push({ text: 'Hi.' }, manage(A, [I, P, P]), { text: 'Planned.' });
    const { id } = await h.newConversation('Regenerate');
    await h.sendAndWait(id, 'Hello');
    await h.sendAndWait(id, 'Plan the trip');
    expect(await shown(id)).not.toBeNull();

    // The loop waits before its first request until the test has stopped it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.core.tools.addPreparer(() => held);
    const from = h.events.length;
    await h.call('chat:regenerate', { conversationId: id });
    expect(await shown(id)).toBeNull();
    const stopped = h.call('chat:stop', { conversationId: id });
    release();
    await stopped;
    await h.waitForEvent('messages:switched', (e) => e.conversationId === id, { from });
    expect(await shown(id)).toEqual([
      ['Pack', I],
      ['Travel', P],
      ['Unpack', P],
    ]);
    expect(pushed(id)).toEqual(A);
  });

  it('JSON export keeps every branch list and imports; Markdown carries the shown branch list', async () => {
    const { id, messages } = await threeTurns();
    server.push(manage(B, [I, P]), { text: 'Drafting.' });
    await edit(id, messages[0].id, 'Q1 about writing');

    const json = await h.call('export:conversation', { conversationId: id, format: 'json' });
    if (json.kind !== 'download') throw new Error('expected a download');
    const parsed = parseConversationExport(json.text);
    expect(parsed.taskLists.map((list) => [list.tasks.map((t) => t.title), list.closedAt === null])).toEqual([
      [A, false],
      [B, true],
    ]);
    const imported = await h.call('import:conversation', { content: json.text });
    if (imported.kind !== 'imported') throw new Error('not imported');
    expect(await shown(imported.conversationId)).toEqual([
      ['Write draft', I],
      ['Review', P],
    ]);

    const md = await h.call('export:conversation', { conversationId: id, format: 'md' });
    if (md.kind !== 'download') throw new Error('expected a download');
    expect(md.text).toContain('Write draft');
    expect(md.text).not.toContain('Unpack');
  });
});
