// Every approval path with a real MCP server: Allow once, Always allow (written to
// alwaysAllow), Deny, the per-server switch, read-only tools, Stop, workers, Autopilot,
// and a restart while a call waits.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DENIED, NOT_RUN_AFTER_RESTART } from '../../src/main/core/approvals/approvalsModule';
import type { Approval } from '../../src/shared/mcp';
import { startScriptedServer, type ChatBody, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';

let server: ScriptedServer;
let h: ChatHarness;
let root = '';

async function start(entry: Record<string, unknown> = {}) {
  root = makeTempDir('stepwise-approvals-');
  writeMcpConfig(path.join(root, 'data'), { test: testServer(entry) });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir: path.join(root, 'data') });
}

afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
  root = '';
});

const call = (id: string, name = 'mcp__test__read_note', args = '{}') => ({
  toolCalls: [{ id, name, arguments: args }],
});

async function pendingApproval(conversationId: string): Promise<Approval> {
  const event = await h.waitForEvent(
    'approvals:changed',
    (e) => e.conversationId === conversationId && e.approvals.length > 0,
  );
  return event.approvals[0];
}

async function ask(content = 'Read the note.') {
  const conversation = await h.newConversation('Approvals');
  const from = h.events.length;
  await h.call('messages:send', { conversationId: conversation.id, content });
  return { conversation, from };
}

const toolResults = (conversationId: string) =>
  h
    .messages(conversationId)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

describe('approvals', () => {
  it('Allow once runs the call and asks again next time; Deny tells the model', async () => {
    await start();
    server.push(call('call_1'), call('call_2'), { text: 'Done.' });
    const { conversation, from } = await ask();
    const first = await pendingApproval(conversation.id);
    expect(first).toMatchObject({
      toolName: 'mcp__test__read_note',
      server: 'test',
      tool: 'read_note',
      agentLabel: 'The assistant',
      toolCallId: 'call_1',
      arguments: '{}',
    });
    expect(h.core.chat.isRunning(conversation.id)).toBe(true);
    // The same decision waits in the question banner.
    const [question] = await h.call('questions:list', { conversationId: conversation.id });
    expect(question).toMatchObject({
      agentName: 'Assistant',
      text: 'Assistant wants to run mcp__test__read_note',
      actions: [
        { id: 'once', label: 'Allow once' },
        { id: 'always', label: 'Always allow' },
        { id: 'deny', label: 'Deny' },
      ],
    });
    await h.call('approvals:answer', { id: first.id, decision: 'once' });
    expect(await h.call('questions:list', { conversationId: conversation.id })).toEqual([]);

    const second = await h.waitForEvent(
      'approvals:changed',
      (e) => e.conversationId === conversation.id && e.approvals[0]?.toolCallId === 'call_2',
      { from },
    );
    await h.call('approvals:answer', { id: second.approvals[0].id, decision: 'deny' });
    await h.waitIdle(conversation.id, from);

    expect(toolResults(conversation.id)).toEqual(['note contents', DENIED]);
    const last = server.streamRequests()[2].body.messages.at(-1)!;
    expect(last).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_2',
      content: 'The user denied this call; it did not run.',
    });
    expect(await h.call('approvals:list', { conversationId: conversation.id })).toEqual([]);
  });

  it('Always allow is written to alwaysAllow for that tool only, and lets the same calls waiting elsewhere run', async () => {
    await start();
    const conversations = [await h.newConversation('One'), await h.newConversation('Two')];
    server.setScript((req) => (req.body.messages.at(-1)!.role === 'tool' ? { text: 'Done.' } : call('call_1')));
    const from = h.events.length;
    for (const c of conversations) await h.call('messages:send', { conversationId: c.id, content: 'Read the note.' });
    const first = await pendingApproval(conversations[0].id);
    await pendingApproval(conversations[1].id);
    await h.call('approvals:answer', { id: first.id, decision: 'always' });
    for (const c of conversations) await h.waitIdle(c.id, from);
    for (const c of conversations) expect(toolResults(c.id)).toEqual(['note contents']);

    const later = await h.newConversation('Later');
    await h.sendAndWait(later.id, 'Again.');
    expect(toolResults(later.id)).toEqual(['note contents']);
    const file = JSON.parse(fs.readFileSync(path.join(h.dataDir, 'mcp.json'), 'utf8'));
    expect(file.mcpServers.test.alwaysAllow).toEqual(['read_note']);
    expect((fs.statSync(path.join(h.dataDir, 'mcp.json')).mode & 0o777).toString(8)).toBe('600');
    const view = (await h.call('mcp:get', {})).servers[0].tools;
    expect(view.find((t) => t.name === 'read_note')!.alwaysAllow).toBe(true);
    expect(view.find((t) => t.name === 'fail')!.alwaysAllow).toBe(false);
  });

  it('runs without asking for a trusted server, and for read-only tools only when the setting is on', async () => {
    await start();
    await h.call('mcp:setTrusted', { name: 'test', trusted: true });
    server.push(call('call_1', 'mcp__test__fail'), { text: 'Done.' });
    const conversation = await h.newConversation('Trusted');
    await h.sendAndWait(conversation.id, 'Go.');
    expect(toolResults(conversation.id)).toEqual(['the disk is full']);
    expect(h.eventsOf('approvals:changed').filter((e) => e.approvals.length)).toEqual([]);

    await h.call('mcp:setTrusted', { name: 'test', trusted: false });
    await h.call('settings:update', { patch: { autoAllowReadOnly: true } });
    server.push(call('call_2'), { text: 'Done.' });
    const readOnly = await h.newConversation('Read-only');
    await h.sendAndWait(readOnly.id, 'Go.');
    expect(toolResults(readOnly.id)).toEqual(['note contents']);
    expect(h.eventsOf('approvals:changed').filter((e) => e.approvals.length)).toEqual([]);

    // A tool without readOnlyHint still asks.
    server.push(call('call_3', 'mcp__test__fail'), { text: 'Done.' });
    const { conversation: other } = await ask();
    const pending = await pendingApproval(other.id);
    expect(pending.tool).toBe('fail');
  });

  it('Stop denies every pending approval', async () => {
    await start();
    server.push(call('call_1'));
    const { conversation } = await ask();
    await pendingApproval(conversation.id);
    await h.call('chat:stop', { conversationId: conversation.id });
    expect(toolResults(conversation.id)).toEqual([DENIED]);
    expect(h.core.approvals.list(conversation.id)).toEqual([]);
  });

  it('asks for a worker’s call in the main conversation, naming the worker', async () => {
    await start();
    const isWorker = (body: ChatBody) => /<task>/.test(String(body.messages[0]?.content ?? ''));
    server.setScript((req) => {
      const body = req.body;
      const last = body.messages.at(-1)!;
      if (isWorker(body)) return last.role === 'tool' ? { text: `Worker read: ${last.content}` } : call('call_w');
      if (last.role === 'tool') return { text: 'A worker is on it.' };
      if (last.role === 'user' && String(last.content).startsWith('Worker 1')) return { text: 'Finished.' };
      return {
        toolCalls: [{ id: 'call_start', name: 'start_task', arguments: '{"task_description":"Read the note"}' }],
      };
    });
    const { conversation } = await ask('Have a worker read the note.');
    const pending = await pendingApproval(conversation.id);
    const [worker] = await h.call('workers:list', { conversationId: conversation.id });
    expect(pending).toMatchObject({
      agentLabel: 'Worker 1',
      agentId: worker.owner,
      transcriptId: worker.id,
      conversationId: conversation.id,
    });
    expect(worker.needsInput).toBe(true);
    // Answered from the banner in the main view.
    const [question] = await h.call('questions:list', { conversationId: conversation.id });
    expect(question).toMatchObject({
      agentName: 'Worker 1',
      workerId: worker.id,
      text: 'Worker 1 wants to run mcp__test__read_note',
    });
    await h.call('questions:answer', { questionId: question.id, reply: { kind: 'action', actionId: 'once' } });
    await vi.waitFor(() => expect(h.messages(conversation.id).at(-1)?.content).toBe('Finished.'), { timeout: 10_000 });
    expect(toolResults(worker.id)).toEqual(['note contents']);
  });

  it('holds Autopilot while a call waits; Autopilot never answers it', async () => {
    await start();
    const conversation = await h.newConversation('Autopilot');
    await h.call('autopilot:set', { conversationId: conversation.id, enabled: true });
    server.push(
      {
        toolCalls: [
          {
            id: 'call_plan',
            name: 'manage_todo_list',
            arguments: JSON.stringify({
              todoList: [
                { id: 1, title: 'Read the note', status: 'in_progress' },
                { id: 2, title: 'Summarize it', status: 'pending' },
                { id: 3, title: 'Report back', status: 'pending' },
              ],
            }),
          },
        ],
      },
      call('call_1'),
    );
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'Go.' });
    const pending = await pendingApproval(conversation.id);
    const requestsWhileWaiting = server.chatRequests().length;
    // The loop waits on the user: no assessor request, no automatic message.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.chatRequests()).toHaveLength(requestsWhileWaiting);
    expect(h.messages(conversation.id).filter((m) => m.origin === 'auto')).toEqual([]);
    expect(h.core.approvals.list(conversation.id)).toHaveLength(1);
    server.push({ text: 'Read it.' });
    await h.call('approvals:answer', { id: pending.id, decision: 'deny' });
    await h.waitIdle(conversation.id, from);
    expect(toolResults(conversation.id).at(-1)).toBe(DENIED);
  });

  it('after a restart a waiting call is shown as not run and the model is told', async () => {
    await start();
    server.push(call('call_1'));
    const { conversation } = await ask();
    await pendingApproval(conversation.id);
    const dataDir = h.dataDir;
    await h.core.close();
    h = startChatCore(server, { dataDir });
    expect(toolResults(conversation.id)).toEqual([NOT_RUN_AFTER_RESTART]);
    expect(h.core.approvals.list(conversation.id)).toEqual([]);
    server.push({ text: 'I will ask again.' });
    await h.sendAndWait(conversation.id, 'What happened?');
    const request = server.streamRequests().at(-1)!.body.messages;
    expect(request.find((m) => m.role === 'tool')).toMatchObject({
      tool_call_id: 'call_1',
      content: NOT_RUN_AFTER_RESTART,
    });
  });
});
