// "Changed by <client>" for every write tool, not only update_task: a real SDK Client over
// Streamable HTTP reorders, adds and creates lists, and the header's rows, the transcript's
// quiet line, the model's next request and the Markdown, CSV and JSON exports all name it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse as parseCsv } from 'csv-parse/sync';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { callJson, connectClient, freePort, parseConfiguration } from '../support/taskShareClient';
import { TasksExport } from '../../src/shared/exportFormat';
import { plumbingLine } from '../../src/shared/messageKinds';

let server: ScriptedServer;
let h: ChatHarness;
let client: Client;

async function listWithTasks(titles: string[], title = 'Sources') {
  const conversation = await h.newConversation(title);
  for (const t of titles) await h.call('tasks:add', { conversationId: conversation.id, title: t });
  return conversation.id;
}

const header = async (id: string) => (await h.call('tasks:get', { conversationId: id })).list!.tasks;
const notes = (id: string) =>
  h
    .messages(id)
    .filter((m) => m.role === 'system')
    .map((m) => (m.plumbing ? plumbingLine(m.plumbing) : m.content));
const exported = async (id: string, format: 'md' | 'csv' | 'json') =>
  (await h.call('export:tasksText', { conversationId: id, format, scope: 'open' })).text;

beforeAll(async () => {
  server = await startScriptedServer();
  h = startChatCore(server);
  await h.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: await freePort() } });
  await h.core.taskShare.settled();
  client = await connectClient(parseConfiguration((await h.call('taskShare:configuration', {})).json));
});

afterAll(async () => {
  await client?.close();
  await h?.close();
  await server?.close();
});

describe('reorder_tasks', () => {
  it('shows the client on the tasks it moved, in the transcript and in every export', async () => {
    const id = await listWithTasks(['One', 'Two', 'Three', 'Four']);
    await callJson(client, 'reorder_tasks', { conversationId: id, order: [4, 1, 2, 3] });
    expect((await header(id)).map((t) => [t.id, t.changedBy])).toEqual([
      [4, 'test-client'],
      [1, null],
      [2, null],
      [3, null],
    ]);
    expect(notes(id)).toEqual(['Changed by test-client over MCP: moved task 4 (the order is now 4, 1, 2, 3).']);

    expect(await exported(id, 'md')).toContain('- [ ] Four _(changed by test-client)_\n- [ ] One\n');
    const rows = parseCsv(await exported(id, 'csv'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.id, r.changed_by])).toEqual([
      ['4', 'test-client'],
      ['1', ''],
      ['2', ''],
      ['3', ''],
    ]);
    const [list] = TasksExport.parse(JSON.parse(await exported(id, 'json'))).conversations[0].lists;
    expect(list.events.filter((e) => e.kind === 'reordered').map((e) => e.actor)).toEqual(['mcp:test-client']);
  });

  it('writes no line for the order the list already has, and the user moving the task makes it theirs again', async () => {
    const id = await listWithTasks(['Alpha', 'Beta', 'Gamma']);
    await callJson(client, 'reorder_tasks', { conversationId: id, order: [1, 2, 3] });
    expect(notes(id)).toEqual([]);
    expect((await header(id)).map((t) => t.changedBy)).toEqual([null, null, null]);

    await callJson(client, 'reorder_tasks', { conversationId: id, order: [2, 3, 1] });
    expect((await header(id)).map((t) => [t.id, t.changedBy])).toEqual([
      [2, null],
      [3, null],
      [1, 'test-client'],
    ]);
    await h.call('tasks:reorder', { conversationId: id, order: [1, 2, 3] });
    expect((await header(id)).map((t) => [t.id, t.changedBy])).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
    expect(await exported(id, 'md')).not.toContain('changed by');
  });

  it('keeps the line short for a long list: the count of moved tasks, not every id', async () => {
    const titles = Array.from({ length: 15 }, (_, i) => `Step ${i + 1}`);
    const made = await callJson<{ conversationId: string }>(client, 'create_task_list', {
      title: 'Long list',
      tasks: titles,
    });
    const reversed = titles.map((_, i) => 15 - i);
    await callJson(client, 'reorder_tasks', { conversationId: made.conversationId, order: reversed });
    expect(notes(made.conversationId).at(-1)).toBe('Changed by test-client over MCP: moved 14 tasks.');
    expect((await header(made.conversationId)).map((t) => t.id)).toEqual(reversed);
  });

  it("tells the conversation's model that the client reordered the tasks", async () => {
    const id = await listWithTasks(['First', 'Second']);
    server.push({ text: 'Noted.' });
    await h.sendAndWait(id, 'Hello');
    await callJson(client, 'reorder_tasks', { conversationId: id, order: [2, 1] });
    server.push({ text: 'Seen.' });
    await h.sendAndWait(id, 'Go on');
    const system = server.streamRequests().at(-1)!.body.messages[0].content ?? '';
    expect(system).toContain('test-client (another agent, over MCP) reordered the tasks.');
  });
});

describe('add_task and create_task_list', () => {
  it('shows the client on the added task as update_task does', async () => {
    const id = await listWithTasks(['Existing']);
    await callJson(client, 'add_task', { conversationId: id, title: 'Added by the agent' });
    expect((await header(id)).map((t) => t.changedBy)).toEqual([null, 'test-client']);
    expect(notes(id)).toEqual(['Changed by test-client over MCP: added task 2 "Added by the agent".']);
    expect(await exported(id, 'md')).toContain('- [ ] Added by the agent _(changed by test-client)_');
    const rows = parseCsv(await exported(id, 'csv'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.changed_by)).toEqual(['', 'test-client']);
  });

  it('shows the client on every task of a list it created', async () => {
    const made = await callJson<{ conversationId: string }>(client, 'create_task_list', {
      title: 'Made elsewhere',
      tasks: ['Plan', 'Ship'],
    });
    expect((await header(made.conversationId)).map((t) => t.changedBy)).toEqual(['test-client', 'test-client']);
    expect(notes(made.conversationId)).toEqual([
      'Changed by test-client over MCP: created this task list with 2 tasks.',
    ]);
    const md = await exported(made.conversationId, 'md');
    expect(md).toContain('- [ ] Plan _(changed by test-client)_');
    expect(md).toContain('- [ ] Ship _(changed by test-client)_');
  });
});

describe('a conversation exported and imported again', () => {
  it("keeps Changed by on the tasks whose last change was the client's", async () => {
    const id = await listWithTasks(['Mine', 'Theirs']);
    await callJson(client, 'update_task', { conversationId: id, taskId: 2, title: 'Theirs, renamed' });
    const file = await h.call('export:conversation', { conversationId: id, format: 'json' });
    if (file.kind !== 'download') throw new Error(`expected a download, got ${file.kind}`);
    const imported = await h.call('import:conversation', { content: file.text });
    if (imported.kind !== 'imported') throw new Error(`expected an import, got ${imported.kind}`);
    expect((await header(imported.conversationId)).map((t) => [t.title, t.changedBy])).toEqual([
      ['Mine', null],
      ['Theirs, renamed', 'test-client'],
    ]);
  });
});
