// The plan gate with a real core, the scripted model and a real MCP server: every tool
// kind in each "Review plans" mode, calls held beside a list and refused without one, the
// list limits, ten held calls in a turn, Autopilot running freely until a call is held,
// and the held call made again once the plan is approved.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HELD_FOR_PLAN, NO_PLAN_YET } from '../../src/main/core/plans/planGate';
import { REFUSAL_NOTE } from '../../src/main/core/tools/refusals';
import type { PlanReviewMode } from '../../src/shared/planContract';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';
import { modelText } from '../../src/shared/messageKinds';

let server: ScriptedServer;
let h: ChatHarness;
let root = '';

/** A trusted server (no approval prompts), so what the gate lets through simply runs. */
async function start() {
  root = makeTempDir('stepwise-plan-gate-');
  writeMcpConfig(path.join(root, 'data'), { test: testServer({ trusted: true }) });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir: path.join(root, 'data'), planReview: true });
}

afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
  root = '';
});

const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: JSON.stringify(args) });
const plan = (titles: string[]) => ({ todoList: titles.map((title, i) => ({ id: i + 1, title, status: 'pending' })) });

async function conversation(mode?: PlanReviewMode) {
  const created = await h.newConversation('Plan gate');
  if (mode) await h.call('plan:setMode', { conversationId: created.id, mode });
  return created.id;
}

/** One turn in which the model makes these calls, then answers. */
async function turn(conversationId: string, calls: ReturnType<typeof call>[], content = 'Go.') {
  server.push({ toolCalls: calls }, { text: 'Done.' });
  await h.sendAndWait(conversationId, content);
  const results = new Map(
    h
      .messages(conversationId)
      .filter((m) => m.role === 'tool')
      .map((m) => [m.toolCallId, m.content]),
  );
  return (id: string) => results.get(id);
}

const TOOL_KINDS = [
  call('k_time', 'get_current_time'),
  call('k_think', 'think', { thought: 'First the plan.' }),
  call('k_read', 'mcp__test__read_note'),
  call('k_act', 'mcp__test__env_secret'),
];
const NONE = { general: '', tasks: [] };

describe('the planning-phase gate', () => {
  it("new conversations follow the default in Settings → Agent; a conversation's own choice wins", async () => {
    await start();
    const id = await conversation();
    expect(h.core.settings.effective().planReviewDefault).toBe('before_acting');
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({
      mode: 'before_acting',
      phase: 'planning',
      approved: null,
    });
    await h.call('settings:update', { patch: { planReviewDefault: 'every_plan' } });
    expect((await h.call('plan:get', { conversationId: id })).mode).toBe('every_plan');
    // The conversation's own choice wins over the default.
    await h.call('plan:setMode', { conversationId: id, mode: 'off' });
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ mode: 'off', phase: 'off' });
  });

  it('a new conversation takes the mode chosen before its first send; a wrong one stores nothing', async () => {
    await start();
    server.push({ text: 'Hello.' });
    const id = crypto.randomUUID();
    const bad = await h.callError('conversations:start', {
      id,
      content: 'Hi',
      planReview: 'always' as never,
    });
    expect(bad.code).toBe('invalid_request');
    expect(bad.message).toContain('planReview');
    expect(h.core.conversations.get(id)).toBeUndefined();
    await h.call('conversations:start', { id, content: 'Hi', planReview: 'every_plan' });
    expect((await h.call('plan:get', { conversationId: id })).mode).toBe('every_plan');
    await h.waitIdle(id);
  });

  it('with review off every tool kind runs as before', async () => {
    await start();
    const id = await conversation('off');
    const result = await turn(id, TOOL_KINDS);
    expect(result('k_act')).toBe('no token');
    expect(result('k_read')).toBe('note contents');
  });

  it.each(['before_acting', 'every_plan'] as const)(
    'in %s mode a call that changes things beside the list is held; the others run',
    async (mode) => {
      await start();
      const id = await conversation(mode);
      const result = await turn(id, [
        call('k_plan', 'manage_todo_list', plan(['Read the data', 'Write the report', 'Send it'])),
        ...TOOL_KINDS,
      ]);
      expect(result('k_plan')).not.toContain('Error');
      expect(JSON.parse(result('k_time')!)).toHaveProperty('iso');
      expect(result('k_think')).toBe('Thought recorded');
      expect(result('k_read')).toBe('note contents');
      // Held before the call is made: the server never ran it, and no approval prompt showed.
      expect(result('k_act')).toBe(HELD_FOR_PLAN);
      expect(h.messages(id).find((m) => m.toolCallId === 'k_act')?.outcome).toBe('held');
      expect(h.eventsOf('approvals:changed').filter((e) => e.approvals.length)).toEqual([]);
      const ledger = h.core.db.prepare("SELECT outcome FROM tool_calls WHERE tool_call_id = 'k_act'").get();
      expect(ledger).toEqual({ outcome: 'held' });
      // The model hears about the mode; the card opens with the held call under the list.
      const prompt = String(server.streamRequests()[0].body.messages[0].content);
      if (mode === 'every_plan') expect(prompt).toContain('You are in the planning phase');
      else {
        expect(prompt).toContain('Before you call a tool that changes things, write your plan');
        expect(prompt).not.toContain('You are in the planning phase');
      }
      expect(await h.call('plan:get', { conversationId: id })).toMatchObject({
        phase: 'review',
        revision: 1,
        reviewing: true,
        calls: [{ toolCallId: 'k_act', agentId: 'main', name: 'mcp__test__env_secret', state: 'held', runnable: true }],
      });
    },
  );

  it('before tools that change things: a list worked through with task tools only asks for no review', async () => {
    await start();
    const id = await conversation();
    const titles = ['Read the data', 'Write the report', 'Send it', 'File it'];
    const done = { todoList: titles.map((title, i) => ({ id: i + 1, title, status: 'completed' })) };
    server.push(
      { toolCalls: [call('w1', 'manage_todo_list', plan(titles)), ...TOOL_KINDS.filter((c) => c.id !== 'k_act')] },
      { toolCalls: [call('w2', 'manage_todo_list', done)] },
      { text: 'All four done.' },
    );
    await h.sendAndWait(id, 'Do the four steps.');
    expect(h.core.tasks.get(id)!.tasks.every((t) => t.status === 'completed')).toBe(true);
    // A finished list is done with: no card, and a new acting call needs a new plan.
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({
      phase: 'planning',
      reviewing: false,
      calls: [],
    });
    expect(h.eventsOf('plan:state').some((s) => s.reviewing)).toBe(false);
  });

  it('before tools that change things: an unfinished list without held calls asks for no review', async () => {
    await start();
    const id = await conversation();
    await turn(id, [call('u1', 'manage_todo_list', plan(['Read the data', 'Write the report']))]);
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review', reviewing: false });
    // Every plan reviews it all the same.
    await h.call('plan:setMode', { conversationId: id, mode: 'every_plan' });
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review', reviewing: true });
  });

  it('a call that changes things with no list is refused: write the plan first, and the turn goes on', async () => {
    await start();
    const id = await conversation();
    server.push(
      { toolCalls: [call('n1', 'mcp__test__env_secret')] },
      { toolCalls: [call('n2', 'manage_todo_list', plan(['Read the data'])), call('n3', 'mcp__test__env_secret')] },
      { text: 'Waiting for your approval.' },
    );
    await h.sendAndWait(id, 'Act.');
    expect(h.messages(id).find((m) => m.toolCallId === 'n1')).toMatchObject({ content: NO_PLAN_YET, outcome: 'held' });
    // The turn went on: the next request carried the refusal, and the next call was held.
    expect(server.streamRequests()).toHaveLength(3);
    expect(h.messages(id).find((m) => m.toolCallId === 'n3')).toMatchObject({
      content: HELD_FOR_PLAN,
      outcome: 'held',
    });
  });

  it('a call before the list in the same reply is held, not refused', async () => {
    await start();
    const id = await conversation();
    const result = await turn(id, [
      call('b1', 'mcp__test__env_secret'),
      call('b2', 'manage_todo_list', plan(['Read the data'])),
    ]);
    expect(result('b1')).toBe(HELD_FOR_PLAN);
    expect((await h.call('plan:get', { conversationId: id })).calls.map((c) => c.toolCallId)).toEqual(['b1']);
  });

  it('the granular task tools plan as well', async () => {
    await start();
    await h.call('settings:update', { patch: { taskToolStyle: 'granular' } });
    const id = await conversation();
    const result = await turn(id, [
      call('g1', 'task_create', { title: 'Read the data' }),
      call('g2', 'task_create', { title: 'Write it up' }),
      call('g3', 'task_list'),
      call('g4', 'task_update', { taskId: 1, title: 'Read all the data' }),
      call('g5', 'task_get', { taskId: 1 }),
      call('g6', 'task_delete', { taskId: 2 }),
      call('g7', 'mcp__test__env_secret'),
    ]);
    for (const id of ['g1', 'g2', 'g3', 'g4', 'g5', 'g6']) expect(result(id)).toContain('"ok":true');
    expect(result('g7')).toBe(HELD_FOR_PLAN);
  });

  it('a server the user marked read-only may be used while planning', async () => {
    await start();
    const id = await conversation();
    await h.call('mcp:setReadOnly', { name: 'test', readOnly: true });
    const view = await h.call('mcp:get', {});
    expect(view.servers[0].readOnly).toBe(true);
    const result = await turn(id, [call('r1', 'mcp__test__env_secret')]);
    expect(result('r1')).toBe('no token');
  });

  it('refuses an empty plan and one of more than 50 tasks', async () => {
    await start();
    const id = await conversation();
    const many = Array.from({ length: 51 }, (_, i) => `Step number ${i + 1}`);
    const result = await turn(id, [
      call('e1', 'manage_todo_list', { todoList: [] }),
      call('e2', 'manage_todo_list', plan(many)),
    ]);
    expect(result('e1')).toContain('A plan needs at least one task');
    expect(result('e2')).toContain('at most 50 tasks');
    expect(h.core.tasks.get(id)).toBeNull();
    expect((await h.call('plan:get', { conversationId: id })).phase).toBe('planning');
  });

  it('ten held calls in one reply end the turn with a note, and the card lists them all', async () => {
    await start();
    const id = await conversation();
    const calls = Array.from({ length: 10 }, (_, i) => call(`x${i}`, 'mcp__test__env_secret', { n: i }));
    server.push({ toolCalls: [call('x_plan', 'manage_todo_list', plan(['Act'])), ...calls] }, { text: 'Not asked.' });
    await h.sendAndWait(id, 'Do it.');
    expect(server.streamRequests()).toHaveLength(1);
    const last = h.messages(id).at(-1)!;
    expect(last).toMatchObject({ role: 'system', content: REFUSAL_NOTE });
    const state = await h.call('plan:get', { conversationId: id });
    expect(state.reviewing).toBe(true);
    expect(state.calls.map((c) => [c.toolCallId, c.state, JSON.parse(c.arguments).n])).toEqual(
      calls.map((c, i) => [c.id, 'held', i]),
    );
  });

  it('a held call whose server disconnects before approval: the card says so, and Approve tells the model', async () => {
    await start();
    const id = await conversation();
    await turn(id, [call('d_plan', 'manage_todo_list', plan(['Act'])), call('d1', 'mcp__test__env_secret')]);
    expect((await h.call('plan:get', { conversationId: id })).calls).toMatchObject([
      { toolCallId: 'd1', runnable: true },
    ]);
    await h.call('mcp:setEnabled', { name: 'test', enabled: false });
    expect((await h.call('plan:get', { conversationId: id })).calls).toMatchObject([
      { toolCallId: 'd1', runnable: false },
    ]);
    server.push({ text: 'The tool is gone.' });
    const at = h.events.length;
    await h.call('plan:approve', { conversationId: id, tasks: [{ id: 1, title: 'Act' }], comments: NONE });
    await h.waitIdle(id, at);
    const approval = modelText(h.messages(id).find((m) => m.origin === 'auto')!);
    expect(approval).toContain('These held calls can no longer run');
    expect(approval).toContain('- mcp__test__env_secret (1 call)');
    expect(approval).not.toContain('make them again now');
  });

  it('Autopilot holds once a call is held; Approve tells the model, and the call made again runs', async () => {
    await start();
    const id = await conversation();
    await h.call('autopilot:set', { conversationId: id, enabled: true });
    await turn(id, [
      call('p1', 'manage_todo_list', plan(['Read the data', 'Write the report'])),
      call('h1', 'mcp__test__env_secret'),
    ]);
    expect(h.core.autopilot.state(id)).toMatchObject({ enabled: true, checking: false, continuing: null });

    server.push({ toolCalls: [call('a1', 'mcp__test__env_secret')] }, { text: 'Task 1 underway.' });
    const at = h.events.length;
    const state = await h.call('plan:approve', {
      conversationId: id,
      tasks: [
        { id: 1, title: 'Read the data' },
        { id: 2, title: 'Write the report' },
      ],
      comments: NONE,
    });
    expect(state).toMatchObject({ phase: 'approved', approved: { revision: 1 }, reviewing: false, calls: [] });
    await h.waitIdle(id, at);
    const tool = h.messages(id).find((m) => m.toolCallId === 'a1');
    expect(tool?.content).toBe('no token');
    // Autopilot did not continue the plan on its own: the approval is the first automatic
    // message, and it names the held call for the model to make again.
    const auto = h.messages(id).filter((m) => m.origin === 'auto');
    expect(auto[0].kind).toBe('plan_approved');
    expect(modelText(auto[0])).toMatch(/^PLAN_APPROVED: revision 1 · 2 tasks/);
    expect(modelText(auto[0])).toContain(
      'make them again now if they are still needed:\n- mcp__test__env_secret (1 call)',
    );
  });
});
