// A version switch is one of the routes by which a call's reason to wait in the plan gate
// disappears (task lists follow branches: tasks/branchLists.ts). A real core, the scripted
// model playing the main agent and its worker, and a real MCP server.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

const workerResult = () =>
  h.core.db
    .prepare<[], { content: string; outcome: string }>(
      "SELECT content, outcome FROM messages WHERE role = 'tool' AND tool_call_id = 'w_act'",
    )
    .get();

describe('a version switch under plan review', () => {
  it("switching back to the version whose plan was approved lets a worker's waiting call run", async () => {
    root = makeTempDir('stepwise-plan-versions-');
    writeMcpConfig(path.join(root, 'data'), { test: testServer({ trusted: true }) });
    server = await startScriptedServer();
    h = startChatCore(server, { dataDir: path.join(root, 'data'), planReview: true });
    // The first answer only plans; the regenerated one plans again and starts a worker on task 1.
    let answers = 0;
    server.setScript((req) => {
      const body = req.body;
      if (isWorker(body)) {
        if (lastRole(body) === 'tool') return { text: `Worker saw: ${String(body.messages.at(-1)?.content)}` };
        return { toolCalls: [call('w_act', 'mcp__test__env_secret')] };
      }
      if (!isMain(body)) return { text: 'Title' };
      if (lastRole(body) === 'tool') return { text: 'Planned.' };
      if (lastUser(body) !== 'Read the secret.') return { text: 'Noted.' };
      answers += 1;
      if (answers === 1) return { toolCalls: [call('m_plan', 'manage_todo_list', PLAN)] };
      return {
        toolCalls: [
          call('m_plan2', 'manage_todo_list', PLAN),
          call('m_start', 'start_task', { task_description: 'Read the secret', taskId: 1 }),
        ],
      };
    });
    const { id } = await h.newConversation('Versions under review');
    await h.sendAndWait(id, 'Read the secret.');
    const firstReply = h.messages(id).find((m) => m.role === 'assistant')!;
    let from = h.events.length;
    await h.call('plan:approve', {
      conversationId: id,
      tasks: [{ id: 1, title: 'Collect the secret' }],
      comments: { general: '', tasks: [] },
    });
    await h.waitIdle(id, from);
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'approved' });

    // A new version of the reply starts without a list; its plan is not approved, so the
    // worker's call waits for the approval.
    from = h.events.length;
    await h.call('chat:regenerate', { conversationId: id, messageId: firstReply.id });
    await h.waitForEvent(
      'plan:state',
      (s) => s.conversationId === id && s.calls.some((c) => c.agentId === 'worker-1'),
      {
        from,
      },
    );
    await h.waitIdle(id, from);
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review' });
    expect(workerResult()).toBeUndefined();

    // Version 1 brings its approved list back: nothing is left to wait for.
    from = h.events.length;
    const newReply = h.messages(id).find((m) => m.role === 'assistant')!;
    expect(newReply.id).not.toBe(firstReply.id);
    await h.call('messages:showVersion', { conversationId: id, messageId: newReply.id, index: 1 });
    await h.waitForEvent('workers:changed', (w) => w.workers.some((x) => x.status === 'done'), { from });
    expect(workerResult()).toEqual({ content: 'no token', outcome: 'ok' });
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'approved', calls: [] });
  });
});
