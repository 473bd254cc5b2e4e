// "Every plan": the answer to a held change is to the version the user saw, a held call
// never outlives the difference it waits on, and each answer leaves a line in the
// transcript. A real core, the scripted model and a real MCP server.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanState } from '../../src/shared/planContract';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';
import { callJson, closeClient, connectClient, freePort, parseConfiguration } from '../support/taskShareClient';

let server: ScriptedServer;
let h: ChatHarness;
let root = '';

afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
  root = '';
});

const NONE = { general: '', tasks: [] };
const todo = (id: string, titles: string[]) => ({
  id,
  name: 'manage_todo_list',
  arguments: JSON.stringify({ todoList: titles.map((title, i) => ({ id: i + 1, title, status: 'pending' })) }),
});
const act = (id: string) => ({ id, name: 'mcp__test__env_secret', arguments: '{}' });
const shown = (id: string) => h.core.tasks.get(id)!.tasks.map((t) => ({ id: t.id, title: t.title }));
const result = (conversationId: string, callId: string) =>
  h.messages(conversationId).find((m) => m.toolCallId === callId)?.content;
const notes = (conversationId: string) =>
  h
    .messages(conversationId)
    .filter((m) => m.role === 'system' && m.content.startsWith('Plan change'))
    .map((m) => m.content);

/**
 * An approved two-task plan in "Every plan"; the model's next turn changes the plan as
 * `titles` says and makes an acting call, which waits. Returns the held state.
 */
async function held(titles: string[]): Promise<{ id: string; from: number; state: PlanState }> {
  root = makeTempDir('stepwise-plan-answers-');
  writeMcpConfig(path.join(root, 'data'), { test: testServer({ trusted: true }) });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir: path.join(root, 'data'), planReview: true });
  const { id } = await h.newConversation('Answers');
  await h.call('plan:setMode', { conversationId: id, mode: 'every_plan' });
  server.push({ toolCalls: [todo('p1', ['Collect the figures', 'Draft the summary'])] }, { text: 'The plan.' });
  await h.sendAndWait(id, 'Prepare the summary.');
  server.push({ toolCalls: [todo('p2', titles), act('a1')] }, { text: 'Done.' });
  const from = h.events.length;
  await h.call('plan:approve', { conversationId: id, tasks: shown(id), comments: NONE });
  const state = await h.waitForEvent(
    'plan:state',
    (s) => s.conversationId === id && s.calls.some((c) => c.state === 'waiting_for_change'),
    { from },
  );
  return { id, from, state };
}

describe('answers to a change of the plan', () => {
  it('Approve changes leaves "Plan change approved · revision 2" with the diff; the revision is kept', async () => {
    const { id, from, state } = await held(['Collect the figures', 'Draft the summary', 'Book a room']);
    await h.call('plan:answerAmendment', {
      conversationId: id,
      approve: true,
      tasks: state.amendment!.after,
      approvedRevision: 1,
    });
    await h.waitIdle(id, from);
    expect(result(id, 'a1')).toBe('no token');
    expect(notes(id)).toEqual(['Plan change approved · revision 2\n- Added task 3 “Book a room”']);
    const revisions = await h.call('plan:revisions', { conversationId: id });
    expect(revisions.map((r) => [r.revision, r.approvedAt !== null, r.tasks.length])).toEqual([
      [1, true, 2],
      [2, true, 3],
    ]);
    // The line is for the user: the model never sees it.
    expect(JSON.stringify(server.streamRequests().at(-1)!.body.messages)).not.toContain('Plan change approved');
  });

  it('Reject changes leaves "Plan change rejected" with the diff', async () => {
    const { id, from, state } = await held(['Collect all figures', 'Draft the summary']);
    await h.call('plan:answerAmendment', {
      conversationId: id,
      approve: false,
      tasks: state.amendment!.after,
      approvedRevision: 1,
    });
    await h.waitIdle(id, from);
    expect(notes(id)).toEqual([
      'Plan change rejected\n- Renamed task 1 from “Collect the figures” to “Collect all figures”',
    ]);
    expect(shown(id).map((t) => t.title)).toEqual(['Collect the figures', 'Draft the summary']);
  });

  it.each([true, false])(
    'a stale answer (approve: %s) is refused and applies nothing; the header redraws',
    async (approve) => {
      const { id, state } = await held(['Collect the figures', 'Draft the summary', 'Book a room']);
      // The list changes after the header drew the change: a rename by someone else.
      await h.call('tasks:update', { conversationId: id, taskId: 3, patch: { title: 'Book a bigger room' } });
      const at = h.events.length;
      const error = await h.callError('plan:answerAmendment', {
        conversationId: id,
        approve,
        tasks: state.amendment!.after,
        approvedRevision: 1,
      });
      expect(error).toMatchObject({ code: 'conflict' });
      expect(error.message).toContain('The plan changed while you were reviewing it');
      expect((await h.call('plan:revisions', { conversationId: id })).map((r) => r.revision)).toEqual([1]);
      expect(shown(id).map((t) => t.title)).toEqual(['Collect the figures', 'Draft the summary', 'Book a bigger room']);
      expect(notes(id)).toEqual([]);
      expect(result(id, 'a1')).toBeUndefined();
      // The header gets the change as it is now.
      const pushed = await h.waitForEvent('plan:state', (s) => s.conversationId === id, { from: at });
      expect(pushed.amendment!.after.map((t) => t.title)).toContain('Book a bigger room');
      // A stale approved revision is refused the same way.
      const old = await h.callError('plan:answerAmendment', {
        conversationId: id,
        approve,
        tasks: shown(id),
        approvedRevision: 2,
      });
      expect(old.message).toContain('The plan changed while you were reviewing it');
      await h.call('chat:stop', { conversationId: id });
    },
  );

  it('the held call is released when the user deletes the added task instead of answering', async () => {
    const { id, from } = await held(['Collect the figures', 'Draft the summary', 'Book a room']);
    await h.call('tasks:delete', { conversationId: id, taskId: 3 });
    await h.waitIdle(id, from);
    expect(result(id, 'a1')).toBe('no token');
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ amendment: null, calls: [] });
  });

  it('the held call is released when the task is renamed back', async () => {
    const { id, from } = await held(['Collect all figures', 'Draft the summary']);
    await h.call('tasks:update', { conversationId: id, taskId: 1, patch: { title: 'Collect the figures' } });
    await h.waitIdle(id, from);
    expect(result(id, 'a1')).toBe('no token');
  });

  it('the held call is released when review is switched to Before tools that change things', async () => {
    const { id, from } = await held(['Collect all figures', 'Draft the summary']);
    await h.call('plan:setMode', { conversationId: id, mode: 'before_acting' });
    await h.waitIdle(id, from);
    expect(result(id, 'a1')).toBe('no token');
  });

  it('the held call is released when another agent renames the task back over task sharing', async () => {
    const { id, from } = await held(['Collect all figures', 'Draft the summary']);
    await h.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: await freePort() } });
    await h.core.taskShare.settled();
    const client = await connectClient(parseConfiguration((await h.call('taskShare:configuration', {})).json));
    try {
      const list = await callJson<{ tasks: Array<{ title: string }> }>(client, 'update_task', {
        conversationId: id,
        taskId: 1,
        title: 'Collect the figures',
      });
      expect(list.tasks.map((t) => t.title)).toEqual(['Collect the figures', 'Draft the summary']);
      await h.waitIdle(id, from);
    } finally {
      await closeClient(client);
    }
    expect(result(id, 'a1')).toBe('no token');
    expect(notes(id)).toEqual([]);
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ amendment: null, calls: [] });
  });

  it('no version switch can take the change away while it is held: the turn still runs, so it is refused', async () => {
    // A switch with a held change cannot happen: the held call is part of a running turn
    // (a worker's wait released by a switch: plans.versionSwitch.test.ts).
    const { id } = await held(['Collect all figures', 'Draft the summary']);
    const reply = h.messages(id).find((m) => m.role === 'assistant')!;
    const error = await h.callError('messages:showVersion', { conversationId: id, messageId: reply.id, index: 1 });
    expect(error).toMatchObject({ code: 'conflict' });
    expect(result(id, 'a1')).toBeUndefined();
    expect((await h.call('plan:get', { conversationId: id })).calls).toMatchObject([
      { toolCallId: 'a1', state: 'waiting_for_change' },
    ]);
    await h.call('chat:stop', { conversationId: id });
  });
});
