// A regenerate parks the shown reply's task list before its new reply is stored. Killed
// (SIGKILL, at each regenerate fault point) with a list on each version of the reply, the
// host comes back showing one whole version with its own list, and the other version
// still reachable with its own: never the list as of the question under an old reply.
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../support/scriptedServer';
import { connectHost, integrityOk, startHostChild, type HostClient } from '../support/hostChild';
import { startScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

/** Two host starts from source (tsx) per case, on a shared two-core machine. */
const TIMEOUT = 60_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const todo = (statuses: string[]): Turn => ({
  toolCalls: [
    {
      name: 'manage_todo_list',
      arguments: JSON.stringify({
        todoList: statuses.map((status, i) => ({ id: i + 1, title: ['Draft', 'Review'][i], status })),
      }),
    },
  ],
});

/** The model's turns, in order (titles never take one). */
const TURNS: Turn[] = [
  todo(['in_progress', 'pending']),
  { text: 'Planned.' },
  todo(['completed', 'in_progress']),
  { text: 'Version one.' },
  todo(['completed', 'completed']),
  { text: 'Version two.' },
];
/** Each version of the reply to "Go on" and the list it left. */
const LISTS: Record<string, string[]> = {
  'Version one.': ['completed', 'in_progress'],
  'Version two.': ['completed', 'completed'],
};

async function setUp(point: string) {
  const queue = [...TURNS];
  const server = await startScriptedServer({
    script: (request) => (request.body.stream ? (queue.shift() ?? { text: 'OK' }) : { text: 'A title' }),
  });
  cleanups.push(() => server.close());
  const dataDir = makeTempDir('stepwise-crash-branch-');
  cleanups.push(() => removeDir(dataDir));
  const env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-crash-test', STEPWISE_MODEL: 'scripted' };
  const start = async (extra: Record<string, string>) => {
    const host = await startHostChild(dataDir, { ...env, ...extra });
    cleanups.push(() => host.kill());
    const api = await connectHost(host);
    cleanups.push(() => api.close());
    return { host, api };
  };
  // The first regenerate (version two) passes the point; the second dies there.
  const first = await start({ STEPWISE_FAULT_POINT: `${point}#2` });
  return { dataDir, first, restart: async () => (await start({})).api };
}

async function untilIdle(api: HostClient, conversationId: string, act: () => Promise<unknown>) {
  const idle = api.next('chat:status', (s) => s.conversationId === conversationId && !s.running);
  await act();
  await idle;
}

/** The shown version of the reply to "Go on" (its first message) and the open list's statuses. */
async function shownState(api: HostClient, conversationId: string) {
  const { items } = await api.call('messages:list', { conversationId });
  const question = items.findIndex((m) => m.role === 'user' && m.content === 'Go on');
  const reply = items.slice(question + 1);
  const { list } = await api.call('tasks:get', { conversationId });
  return {
    first: reply[0],
    text: reply.findLast((m) => m.role === 'assistant')?.content ?? '',
    statuses: list?.tasks.map((t) => t.status) ?? [],
  };
}

describe.each(['regenerate:before-hide', 'regenerate:in-hide', 'regenerate:after-hide'])(
  'killed during a regenerate with a list on each version (%s)',
  (point) => {
    it('shows a version of the reply with its own list; the other keeps its own', { timeout: TIMEOUT }, async () => {
      const { dataDir, first, restart } = await setUp(point);
      const { api } = first;
      const conversation = await api.call('conversations:create', { title: 'Branch lists' });
      const id = conversation.id;
      const send = (content: string) =>
        untilIdle(api, id, () => api.call('messages:send', { conversationId: id, content }));
      await send('Plan it');
      await send('Go on');
      await untilIdle(api, id, () => api.call('chat:regenerate', { conversationId: id }));
      expect(await shownState(api, id)).toMatchObject({ text: 'Version two.', statuses: LISTS['Version two.'] });
      // Version one shown again, with its list: the regenerate that dies leaves it.
      const v2 = (await shownState(api, id)).first;
      await api.call('messages:showVersion', { conversationId: id, messageId: v2.id, index: 1 });
      expect(await shownState(api, id)).toMatchObject({ text: 'Version one.', statuses: LISTS['Version one.'] });

      void api.call('chat:regenerate', { conversationId: id }).catch(() => undefined);
      expect(await first.host.exited).toBe('SIGKILL');

      const after = await restart();
      const shown = await shownState(after, id);
      expect(Object.keys(LISTS)).toContain(shown.text);
      expect(shown.statuses).toEqual(LISTS[shown.text]);
      // Before the commit nothing changed; past it, the newest version is shown again.
      expect(shown.text).toBe(point === 'regenerate:after-hide' ? 'Version two.' : 'Version one.');
      // The other version is reachable, with its own list.
      const other = shown.text === 'Version one.' ? 2 : 1;
      await after.call('messages:showVersion', { conversationId: id, messageId: shown.first.id, index: other });
      const switched = await shownState(after, id);
      expect(switched.text).not.toBe(shown.text);
      expect(switched.statuses).toEqual(LISTS[switched.text]);
      expect(integrityOk(dataDir)).toBe(true);
    });
  },
);
