// The planning-phase gate with a real core, the scripted model and a real MCP server:
// every tool kind in each "Review plans" mode, the list limits, ten refusals in a turn,
// Autopilot holding, and the gate opening once the plan is approved.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_APPROVED } from '../../src/main/core/plans/planGate';
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
  call('k_worker', 'start_task', { task_description: 'Write the report' }),
];

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

  it('with review off every tool kind runs as before', async () => {
    await start();
    const id = await conversation('off');
    const result = await turn(id, TOOL_KINDS);
    expect(result('k_act')).toBe('no token');
    expect(result('k_read')).toBe('note contents');
    expect(result('k_worker')).toContain('"status"');
  });

  it.each(['before_acting', 'every_plan'] as const)(
    'in %s mode only planning and read-only tools run before approval',
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
      // Refused before the call is made: the server never ran it, no worker started.
      expect(result('k_act')).toBe(NOT_APPROVED);
      expect(result('k_worker')).toBe(NOT_APPROVED);
      expect(await h.call('workers:list', { conversationId: id })).toEqual([]);
      expect(h.eventsOf('approvals:changed').filter((e) => e.approvals.length)).toEqual([]);
      // The model hears about the phase, and the plan waits for review.
      expect(server.streamRequests()[0].body.messages[0].content).toContain('You are in the planning phase');
      expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review', revision: 1 });
    },
  );

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
    expect(result('g7')).toBe(NOT_APPROVED);
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

  it('ten refused calls in one turn end it with a note', async () => {
    await start();
    const id = await conversation();
    const calls = Array.from({ length: 10 }, (_, i) => call(`x${i}`, 'mcp__test__env_secret'));
    server.push({ toolCalls: calls }, { text: 'Should not be asked for.' });
    await h.sendAndWait(id, 'Do it.');
    expect(server.streamRequests()).toHaveLength(1);
    const last = h.messages(id).at(-1)!;
    expect(last).toMatchObject({ role: 'system', content: REFUSAL_NOTE });
  });

  it('Autopilot holds a plan waiting for review, and approval opens the gate', async () => {
    await start();
    const id = await conversation();
    await h.call('autopilot:set', { conversationId: id, enabled: true });
    await turn(id, [call('p1', 'manage_todo_list', plan(['Read the data', 'Write the report']))]);

    server.push({ toolCalls: [call('a1', 'mcp__test__env_secret')] }, { text: 'Task 1 underway.' });
    const at = h.events.length;
    const state = await h.call('plan:approve', {
      conversationId: id,
      tasks: [
        { id: 1, title: 'Read the data' },
        { id: 2, title: 'Write the report' },
      ],
      comments: { general: '', tasks: [] },
    });
    expect(state).toMatchObject({ phase: 'approved', approved: { revision: 1 } });
    await h.waitIdle(id, at);
    const tool = h.messages(id).find((m) => m.toolCallId === 'a1');
    expect(tool?.content).toBe('no token');
    // Autopilot did not continue the plan on its own: the approval is the first automatic message.
    const auto = h.messages(id).filter((m) => m.origin === 'auto');
    expect(auto[0].kind).toBe('plan_approved');
    expect(modelText(auto[0])).toMatch(/^PLAN_APPROVED: revision 1 · 2 tasks/);
  });
});
