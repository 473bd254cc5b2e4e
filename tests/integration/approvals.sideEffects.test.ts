// A call's side effect is never orphaned: whatever happens to the task a call was made
// for while the call waits (the user deletes it in the header, Reject changes takes it
// away), the call either runs and its result is stored, shown and sent to the model
// with the task named "deleted task N", or it does not run and the model reads exactly
// that. Through the real core, the real filesystem MCP server and the scripted model.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Approval } from '../../src/shared/mcp';
import { filesystem, mcpCorePerTest } from '../support/mcpFixtures';
import type { ChatBody, ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';

const start = mcpCorePerTest('stepwise-side-effects-');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const todo = (id: string, tasks: Array<[string, string?]>) => ({
  id,
  name: 'manage_todo_list',
  arguments: JSON.stringify({
    todoList: tasks.map(([title, status], i) => ({ id: i + 1, title, status: status ?? 'pending' })),
  }),
});
const write = (id: string, file: string, content: string) => ({
  id,
  name: 'mcp__fs__write_file',
  arguments: JSON.stringify({ path: file, content }),
});
const toolMessage = (h: ChatHarness, conversationId: string, callId: string) =>
  h.messages(conversationId).find((m) => m.role === 'tool' && m.toolCallId === callId);
const lastRequest = (server: ScriptedServer) => server.streamRequests().at(-1)!.body;
const sentResult = (body: ChatBody, callId: string) =>
  body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId)?.content;

async function waiting(h: ChatHarness, conversationId: string, from: number): Promise<Approval> {
  const event = await h.waitForEvent(
    'approvals:changed',
    (e) => e.conversationId === conversationId && e.approvals.length > 0,
    { from },
  );
  return event.approvals[0];
}

/** The filesystem server on a fresh folder; the model plans one task in progress, then writes a file. */
async function writeWaitingForApproval() {
  const workDir = fs.realpathSync(makeTempDir('stepwise-side-effects-work-'));
  dirs.push(workDir);
  const { server, h } = await start({ fs: filesystem(workDir) });
  const target = path.join(workDir, 'notes.txt');
  server.push(
    { toolCalls: [todo('call_plan', [['Write the notes', 'in_progress'], ['Check them']])] },
    { toolCalls: [write('call_write', target, 'milk')] },
    { text: 'Done.' },
  );
  const conversation = await h.newConversation('Side effects');
  const from = h.events.length;
  await h.call('messages:send', { conversationId: conversation.id, content: 'Write my notes.' });
  const approval = await waiting(h, conversation.id, from);
  expect(approval.toolCallId).toBe('call_write');
  return { h, server, id: conversation.id, from, approval, target, last: () => lastRequest(server) };
}

describe('the task of a waiting call is deleted', () => {
  it('Allow once: the file is written, the result is stored and sent, naming deleted task 1', async () => {
    const { h, id, from, approval, target, last } = await writeWaitingForApproval();
    await h.call('tasks:delete', { conversationId: id, taskId: 1 });
    await h.call('approvals:answer', { id: approval.id, decision: 'once' });
    const status = await h.waitIdle(id, from);

    expect(status.error).toBeNull();
    expect(fs.readFileSync(target, 'utf8')).toBe('milk');
    const stored = toolMessage(h, id, 'call_write')!;
    expect(stored.outcome).toBe('ok');
    expect(stored.content).toContain('Successfully wrote to');
    expect(stored.content).toContain('This call ran; its result is above. It was made for deleted task 1');
    // The model's next request carries that result, never an "interrupted" filler.
    expect(sentResult(last(), 'call_write')).toBe(stored.content);
    expect(JSON.stringify(last().messages)).not.toContain('interrupted');
    expect(h.messages(id).at(-1)).toMatchObject({ role: 'assistant', content: 'Done.' });
    // The ledger keeps the call, linked to no task (its task is gone), pointing at its card.
    const row = h.core.ledger.store.all(id).find((r) => r.tool_call_id === 'call_write')!;
    expect(row).toMatchObject({ task_id: null, outcome: 'ok', message_id: stored.id });
  });

  it('Deny: nothing is written and the model reads that the call did not run', async () => {
    const { h, id, from, approval, target, last } = await writeWaitingForApproval();
    await h.call('tasks:delete', { conversationId: id, taskId: 1 });
    await h.call('approvals:answer', { id: approval.id, decision: 'deny' });
    const status = await h.waitIdle(id, from);

    expect(status.error).toBeNull();
    expect(fs.existsSync(target)).toBe(false);
    const text = 'The user deleted task 1 before this call was allowed, then denied it; it did not run.';
    expect(toolMessage(h, id, 'call_write')).toMatchObject({ content: text, outcome: 'denied' });
    expect(sentResult(last(), 'call_write')).toBe(text);
  });

  it('a task cancelled while its call waits keeps the call linked to it', async () => {
    const { h, id, from, approval, target, last } = await writeWaitingForApproval();
    await h.call('tasks:update', { conversationId: id, taskId: 1, patch: { status: 'cancelled' } });
    await h.call('approvals:answer', { id: approval.id, decision: 'once' });
    expect((await h.waitIdle(id, from)).error).toBeNull();
    expect(fs.readFileSync(target, 'utf8')).toBe('milk');
    const stored = toolMessage(h, id, 'call_write')!;
    expect(stored.content).toBe(JSON.stringify({ content: `Successfully wrote to ${target}` }));
    expect(sentResult(last(), 'call_write')).toBe(stored.content);
    const row = h.core.ledger.store.all(id).find((r) => r.tool_call_id === 'call_write')!;
    expect(row.task_id).not.toBeNull();
  });
});

describe('Reject changes while a call waits (Every plan)', () => {
  it('takes away the task the call was made for; Allow once still writes, stores and sends the result', async () => {
    const workDir = fs.realpathSync(makeTempDir('stepwise-side-effects-work-'));
    dirs.push(workDir);
    const { server, h } = await start({ fs: filesystem(workDir) });
    // start() seeds plan review off for new conversations: this one turns it on itself.
    const { id } = await h.newConversation('Amend');
    await h.call('plan:setMode', { conversationId: id, mode: 'every_plan' });
    server.push({ toolCalls: [todo('p1', [['Collect the figures'], ['Draft the summary']])] }, { text: 'The plan.' });
    await h.sendAndWait(id, 'Prepare the summary.');
    const target = path.join(workDir, 'room.txt');
    server.push(
      {
        toolCalls: [
          todo('p2', [['Collect the figures', 'completed'], ['Draft the summary'], ['Book a room', 'in_progress']]),
          write('call_write', target, 'room 4'),
        ],
      },
      { text: 'Booked.' },
    );
    const from = h.events.length;
    const tasks = h.core.tasks.get(id)!.tasks.map((t) => ({ id: t.id, title: t.title }));
    await h.call('plan:approve', { conversationId: id, tasks, comments: { general: '', tasks: [] } });
    await h.waitForEvent('plan:state', (s) => s.conversationId === id && s.amendment !== null, { from });
    // The list call's result is stored: the write has started, made for task 3, and waits for the answer.
    await h.waitForEvent('messages:changed', (e) => e.message.toolCallId === 'p2', { from });
    const { amendment } = await h.call('plan:get', { conversationId: id });
    await h.call('plan:answerAmendment', {
      conversationId: id,
      approve: false,
      tasks: amendment!.after,
      approvedRevision: (await h.call('plan:revisions', { conversationId: id }))
        .filter((r) => r.approvedAt !== null)
        .at(-1)!.revision,
    });
    expect(h.core.tasks.get(id)!.tasks.map((t) => t.title)).toEqual(['Collect the figures', 'Draft the summary']);
    const approval = await waiting(h, id, from);
    await h.call('approvals:answer', { id: approval.id, decision: 'once' });
    const status = await h.waitIdle(id, from);

    expect(status.error).toBeNull();
    expect(fs.readFileSync(target, 'utf8')).toBe('room 4');
    const stored = toolMessage(h, id, 'call_write')!;
    expect(stored.outcome).toBe('ok');
    expect(stored.content).toContain('It was made for deleted task 3');
    expect(sentResult(lastRequest(server), 'call_write')).toBe(stored.content);
  });
});

describe('the model deletes the task it is working on', () => {
  let server: ScriptedServer;
  let h: ChatHarness;
  chatCorePerTest((s, c) => {
    server = s;
    h = c;
  });

  it('stores the task tool’s result; the call is linked to no task', async () => {
    server.push(
      { toolCalls: [todo('call_plan', [['Only task', 'in_progress'], ['Other']])] },
      // The whole list again without task 1, the task in progress.
      {
        toolCalls: [
          {
            id: 'call_delete',
            name: 'manage_todo_list',
            arguments: JSON.stringify({ todoList: [{ id: 2, title: 'Other', status: 'in_progress' }] }),
          },
        ],
      },
      { text: 'Removed.' },
    );
    const conversation = await h.newConversation('Delete own task');
    const { status } = await h.sendAndWait(conversation.id, 'Drop the first task.');
    expect(status.error).toBeNull();
    expect(h.core.tasks.get(conversation.id)!.tasks.map((t) => t.title)).toEqual(['Other']);
    // The list update is bookkeeping (no task's ledger entry), so it names no task at all.
    const stored = toolMessage(h, conversation.id, 'call_delete')!;
    expect(stored.content).toContain('Task list updated');
    expect(stored.content).not.toContain('FOREIGN KEY');
    expect(h.core.ledger.store.all(conversation.id).find((r) => r.tool_call_id === 'call_delete')!.task_id).toBeNull();
  });
});
