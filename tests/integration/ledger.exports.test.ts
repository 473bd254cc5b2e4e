// The task ledger in every export format, from calls the real agent loop made: JSON
// `toolCalls` per task (secret-looking values masked), Markdown nested items under the
// task, CSV a `tool_calls` count; and the conversation export carries it for import.
// Bookkeeping (the list's own updates, `think`) is in none of them: tasks list real actions.
import { parse as parseCsv } from 'csv-parse/sync';
import type { List, ListItem } from 'mdast';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ScriptedServer, type Turn } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import { defineTool, toolResult } from '../../src/main/core/tools/toolTypes';
import { ConversationExport, TasksExport } from '../../src/shared/exportFormat';
import { parseGfm, textOf, walk } from './export/markdownTree';

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

const SECRET = 'tok-9f8e7d6c5b4a3210';
const TITLES = ['Gather facts', 'Write summary', 'Review'];
function plan(statuses: string[], id: string): Turn {
  const todoList = statuses.map((status, i) => ({ id: i + 1, title: TITLES[i], status }));
  return { toolCalls: [{ id, name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] };
}

async function conversationWithLedger(): Promise<string> {
  h.core.tools.register(
    defineTool({
      name: 'deploy',
      description: 'Deploys',
      parameters: z.object({ target: z.string(), headers: z.record(z.string(), z.string()) }),
      handler: () => toolResult('denied', 'The user denied this call.'),
    }),
  );
  h.core.tools.register(
    defineTool({
      name: 'lookup',
      description: 'Looks up the time somewhere',
      parameters: z.object({ timeZone: z.string(), apiToken: z.string() }),
      handler: (args) => JSON.stringify({ timeZone: args.timeZone, time: '12:00' }),
    }),
  );
  const turns: Turn[] = [
    plan(['in_progress', 'pending', 'pending'], 'call_plan'),
    {
      toolCalls: [
        { id: 'call_time', name: 'lookup', arguments: JSON.stringify({ timeZone: 'UTC', apiToken: SECRET }) },
      ],
    },
    {
      toolCalls: [
        {
          id: 'call_deploy',
          name: 'deploy',
          arguments: JSON.stringify({ target: 'prod', headers: { Authorization: `Bearer ${SECRET}` } }),
        },
      ],
    },
    {
      toolCalls: [
        { id: 'call_think', name: 'think', arguments: JSON.stringify({ thought: 'Deploy was denied; report it.' }) },
      ],
    },
    plan(['completed', 'in_progress', 'pending'], 'call_next'),
    { text: 'Task 1 is done.' },
  ];
  let n = 0;
  server.setScript((req) => (req.body.stream ? (turns[n++] ?? { text: 'OK' }) : { text: 'A title' }));
  const conversation = await h.newConversation('Ledger export');
  const { status } = await h.sendAndWait(conversation.id, 'Go.');
  expect(status.error).toBeNull();
  return conversation.id;
}

const exportText = async (conversationId: string, format: 'md' | 'json' | 'csv') =>
  (await h.call('export:tasksText', { conversationId, format, scope: 'open' })).text;

describe('the ledger in exports', () => {
  it('JSON: a toolCalls array per task with name, masked arguments, outcome, times and the result', async () => {
    const id = await conversationWithLedger();
    const text = await exportText(id, 'json');
    expect(text).not.toContain(SECRET);
    const data = TasksExport.parse(JSON.parse(text));
    expect(data.version).toBe(2);
    const [task1, task2, task3] = data.conversations[0].lists[0].tasks;
    expect(task1.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ['lookup', 'ok'],
      ['deploy', 'denied'],
    ]);
    expect(JSON.parse(task1.toolCalls[0].arguments)).toEqual({ timeZone: 'UTC', apiToken: '••••' });
    expect(JSON.parse(task1.toolCalls[1].arguments)).toEqual({ target: 'prod', headers: { Authorization: '••••' } });
    expect(task1.toolCalls[1].result).toBe('The user denied this call.');
    expect(JSON.parse(task1.toolCalls[0].result).timeZone).toBe('UTC');
    for (const c of task1.toolCalls) expect(Date.parse(c.endedAt)).toBeGreaterThanOrEqual(Date.parse(c.startedAt));
    expect(task2.toolCalls).toEqual([]);
    expect(task3.toolCalls).toEqual([]);
    // The prompt's task block stays as compact as before: no ledger in it.
    const last = server.streamRequests().at(-1)!.body.messages[0].content ?? '';
    expect(/<taskList>[\s\S]*<\/taskList>/.exec(last)![0]).not.toMatch(/tool call|lookup|deploy/);
  });

  it('Markdown: the calls are nested items under their task', async () => {
    const id = await conversationWithLedger();
    const text = await exportText(id, 'md');
    expect(text).not.toContain(SECRET);
    const lists: List[] = [];
    walk(parseGfm(text), (node) => {
      if (node.type === 'list') lists.push(node);
    });
    const top = lists[0];
    const items = top.children as ListItem[];
    expect(items.map((item) => textOf(item.children[0]))).toEqual([
      'Gather facts',
      'Write summary (in progress)',
      'Review',
    ]);
    const nested = items[0].children.find((child) => child.type === 'list') as List;
    const lines = nested.children.map((item) => textOf(item));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^lookup \{"timeZone":"UTC","apiToken":"••••"\} → ok · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(lines[1]).toMatch(/^deploy \{.*\} → denied · /);
    expect(items[1].children.some((child) => child.type === 'list')).toBe(false);
  });

  it('CSV: a tool_calls count column', async () => {
    const id = await conversationWithLedger();
    const rows = parseCsv(await exportText(id, 'csv'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.title, r.tool_calls])).toEqual([
      ['Gather facts', '2'],
      ['Write summary', '0'],
      ['Review', '0'],
    ]);
  });

  it('conversation JSON: each call points at its result message, and survives export → import → export', async () => {
    const id = await conversationWithLedger();
    const exported = await h.call('export:conversation', { conversationId: id, format: 'json' });
    if (exported.kind !== 'download') throw new Error('expected a download');
    expect(exported.text).not.toContain(`"apiToken":"${SECRET}"`);
    const data = ConversationExport.parse(JSON.parse(exported.text));
    const calls = data.taskLists[0].tasks[0].toolCalls;
    for (const c of calls) {
      const message = data.messages.find((m) => m.id === c.messageId)!;
      expect(message).toMatchObject({ role: 'tool', toolCallId: c.toolCallId, toolName: c.name });
    }
    const imported = await h.call('import:conversation', { content: exported.text });
    if (imported.kind !== 'imported') throw new Error('not imported');
    const again = await h.call('export:conversation', { conversationId: imported.conversationId, format: 'json' });
    if (again.kind !== 'download') throw new Error('expected a download');
    const copy = ConversationExport.parse(JSON.parse(again.text));
    expect(copy.taskLists).toEqual(data.taskLists);
  });
});
