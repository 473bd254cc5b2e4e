// Plan approval is one transaction: the approved revision and the quiet message that has
// the agent carry on. Killed (SIGKILL) before, inside (between the revision and the
// message) and after it, the host comes back with both or neither: never a plan approved
// that the agent was not told about, nor a message about a plan that is not approved.
import { afterEach, describe, expect, it } from 'vitest';
import { connectHost, integrityOk, readDb, startHostChild, type HostClient } from '../support/hostChild';
import { startScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

/** Two host starts from source (tsx) per case, on a shared two-core machine. */
const TIMEOUT = 60_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(point: string) {
  const queue = [
    {
      toolCalls: [
        {
          name: 'manage_todo_list',
          arguments: JSON.stringify({
            todoList: [
              { id: 1, title: 'Collect the figures', status: 'pending' },
              { id: 2, title: 'Draft the summary', status: 'pending' },
            ],
          }),
        },
      ],
    },
    { text: 'Here is my plan.' },
  ];
  const server = await startScriptedServer({
    script: (request) => (request.body.stream ? (queue.shift() ?? { text: 'OK' }) : { text: 'A title' }),
  });
  cleanups.push(() => server.close());
  const dataDir = makeTempDir('stepwise-crash-plan-');
  cleanups.push(() => removeDir(dataDir));
  const env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-crash-test', STEPWISE_MODEL: 'scripted' };
  const start = async (extra: Record<string, string>) => {
    const host = await startHostChild(dataDir, { ...env, ...extra });
    cleanups.push(() => host.kill());
    const api = await connectHost(host);
    cleanups.push(() => api.close());
    return { host, api };
  };
  const first = await start({ STEPWISE_FAULT_POINT: point });
  return { dataDir, first, restart: async () => (await start({})).api };
}

async function approvedState(api: HostClient, conversationId: string) {
  const revisions = await api.call('plan:revisions', { conversationId });
  const { items } = await api.call('messages:list', { conversationId });
  return {
    approved: revisions.filter((r) => r.approvedAt !== null).map((r) => r.revision),
    told: items.filter((m) => m.kind === 'plan_approved').length,
    phase: (await api.call('plan:get', { conversationId })).phase,
  };
}

describe.each(['plan:before-approve', 'plan:in-approve', 'plan:after-approve'])(
  'killed while a plan is approved (%s)',
  (point) => {
    it('keeps the approved revision and its message together, or neither', { timeout: TIMEOUT }, async () => {
      const { dataDir, first, restart } = await setUp(point);
      const { api } = first;
      const { id } = await api.call('conversations:create', { title: 'Plan crash' });
      await api.call('plan:setMode', { conversationId: id, mode: 'every_plan' });
      const idle = api.next('chat:status', (s) => s.conversationId === id && !s.running);
      await api.call('messages:send', { conversationId: id, content: 'Prepare the summary.' });
      await idle;
      expect(await approvedState(api, id)).toEqual({ approved: [], told: 0, phase: 'review' });
      const { list } = await api.call('tasks:get', { conversationId: id });
      const tasks = list!.tasks.map((t) => ({ id: t.id, title: t.title }));

      void api
        .call('plan:approve', { conversationId: id, tasks, comments: { general: '', tasks: [] } })
        .catch(() => undefined);
      expect(await first.host.exited).toBe('SIGKILL');

      const after = await restart();
      const state = await approvedState(after, id);
      expect([
        { approved: [], told: 0, phase: 'review' },
        { approved: [1], told: 1, phase: 'approved' },
      ]).toContainEqual(state);
      // Past the commit the approval holds; before it, nothing of it was written.
      expect(state.told).toBe(point === 'plan:after-approve' ? 1 : 0);
      const rows = readDb(dataDir, (db) => db.prepare('SELECT COUNT(*) FROM plan_revisions').pluck().get());
      expect(rows).toBe(state.told);
      expect(integrityOk(dataDir)).toBe(true);
    });
  },
);
