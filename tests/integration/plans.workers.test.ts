// Workers under plan review ("Before tools that change things"), with a real core, the
// scripted model playing the main agent and its worker (routed on the system prompt) and a
// real MCP server: starting a worker needs no approval; the worker's call that changes
// things waits for the plan's approval (the parent's card lists it), then runs; with the
// plan gone it is refused, and with no plan at all it is refused at once.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKER_NO_PLAN } from '../../src/main/core/plans/planGate';
import { startScriptedServer, type ChatBody, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';

let server: ScriptedServer;
let h: ChatHarness;
let root = '';

afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
  root = '';
});

const systemOf = (body: ChatBody) => String(body.messages[0]?.content ?? '');
const isWorker = (body: ChatBody) => /<task>\n/.test(systemOf(body));
const isMain = (body: ChatBody) => systemOf(body).includes('## Delegating to workers');
const lastRole = (body: ChatBody) => body.messages.at(-1)?.role;
const lastUser = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: JSON.stringify(args) });
const PLAN = { todoList: [{ id: 1, title: 'Collect the secret', status: 'pending' }] };

/** The main agent plans (or not) and starts one worker on task 1; the worker makes one acting call. */
async function start(withPlan: boolean) {
  root = makeTempDir('stepwise-plan-workers-');
  writeMcpConfig(path.join(root, 'data'), { test: testServer({ trusted: true }) });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir: path.join(root, 'data'), planReview: true });
  server.setScript((req) => {
    const body = req.body;
    if (isWorker(body)) {
      if (lastRole(body) === 'tool') return { text: `Worker saw: ${String(body.messages.at(-1)?.content)}` };
      return { toolCalls: [call('w_act', 'mcp__test__env_secret')] };
    }
    if (!isMain(body)) return { text: 'Title' };
    if (lastRole(body) === 'tool') return { text: 'The worker is on it.' };
    if (lastUser(body).startsWith('PLAN_APPROVED: ')) return { text: 'Approved; the worker goes on.' };
    if (/^Task 1 was completed by worker|^Worker 1/.test(lastUser(body))) return { text: 'The worker finished.' };
    return {
      toolCalls: [
        ...(withPlan ? [call('m_plan', 'manage_todo_list', PLAN)] : []),
        call('m_start', 'start_task', { task_description: 'Read the secret', ...(withPlan ? { taskId: 1 } : {}) }),
      ],
    };
  });
  const { id } = await h.newConversation('Workers under review');
  await h.call('messages:send', { conversationId: id, content: 'Have a worker read the secret.' });
  return id;
}

const workerResult = () =>
  h.core.db
    .prepare<[], { content: string; outcome: string }>(
      "SELECT content, outcome FROM messages WHERE role = 'tool' AND tool_call_id = 'w_act'",
    )
    .get();

describe('workers under plan review', () => {
  it("a worker's call that changes things waits for the plan's approval, listed on the parent's card", async () => {
    const id = await start(true);
    const waiting = await h.waitForEvent('plan:state', (s) =>
      s.calls.some((c) => c.state === 'waiting_for_plan' && c.agentId === 'worker-1'),
    );
    expect(waiting).toMatchObject({ conversationId: id, phase: 'review', reviewing: true });
    expect(waiting.calls).toMatchObject([{ toolCallId: 'w_act', name: 'mcp__test__env_secret', runnable: true }]);
    // The worker was started (start_task is not a tool that changes things), and its call was not made.
    expect(h.messages(id).find((m) => m.toolCallId === 'm_start')?.content).toContain('"status"');
    expect(workerResult()).toBeUndefined();
    await h.waitIdle(id);

    const at = h.events.length;
    await h.call('plan:approve', {
      conversationId: id,
      tasks: [{ id: 1, title: 'Collect the secret' }],
      comments: { general: '', tasks: [] },
    });
    await h.waitForEvent('workers:changed', (w) => w.workers.some((x) => x.status === 'done'), { from: at });
    expect(workerResult()).toEqual({ content: 'no token', outcome: 'ok' });
    expect((await h.call('plan:get', { conversationId: id })).calls).toEqual([]);
  });

  it("the plan's list cleared while a worker waits: its call is refused, and the worker finishes", async () => {
    const id = await start(true);
    await h.waitForEvent('plan:state', (s) => s.calls.some((c) => c.state === 'waiting_for_plan'));
    await h.waitIdle(id);
    const at = h.events.length;
    await h.call('tasks:clear', { conversationId: id });
    await h.waitForEvent('workers:changed', (w) => w.workers.some((x) => x.status === 'done'), { from: at });
    expect(workerResult()).toEqual({ content: WORKER_NO_PLAN, outcome: 'held' });
  });

  it('with no plan at all a worker is started, and its call that changes things is refused at once', async () => {
    const id = await start(false);
    await h.waitForEvent('workers:changed', (w) => w.workers.some((x) => x.status === 'done'));
    expect(workerResult()).toEqual({ content: WORKER_NO_PLAN, outcome: 'held' });
    expect(h.eventsOf('plan:state').some((s) => s.conversationId === id && s.reviewing)).toBe(false);
  });
});
