// Random sequences of valid and invalid calls, of both tool styles and of the user's
// header edits: nothing throws, a failed call writes nothing, and the invariants hold.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskList } from '../../src/shared/tasks';
import { createDispatcher, type Handlers } from '../../src/main/core/ipc/dispatcher';
import { taskHandlers } from '../../src/main/core/tasks/taskHandlers';
import { findCycle } from '../../src/main/core/tasks/taskRules';
import { taskBadge } from '../../src/shared/taskProgress';
import { createTaskFixture, dumpTaskTables, type TaskFixture } from '../support/taskFixture';
import { makeTempDir, removeDir } from '../support/tempDir';

const RUNS = 1000;

// Mostly valid values, so sequences build real lists; now and then an invalid one.
const taskId = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 1, max: 5 }) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(0, -1, 1.5, 'x', null, 10_000, '#2') },
);
const title = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom('Plan', 'Build it', 'Test', 'Ship', ' Review code ', 'Fix bug') },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('', '   ', 'x'.repeat(201), 5, null) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
);
const status = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('pending', 'not-started') },
  { weight: 10, arbitrary: fc.constantFrom('completed', 'done') },
  { weight: 4, arbitrary: fc.constantFrom('in_progress', 'in-progress') },
  { weight: 2, arbitrary: fc.constant('cancelled') },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('wip', 'deleted', '', 3) },
);
const optionalText = fc.option(fc.constantFrom('Doing it', '', ' detail '), { nil: undefined });
const ids = fc.oneof(
  { weight: 2, arbitrary: fc.constant([]) },
  { weight: 3, arbitrary: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 2 }) },
  { weight: 1, arbitrary: fc.array(taskId, { maxLength: 2 }) },
);
const agent = fc.constantFrom('main', 'main', 'main', 'worker-1');
const garbage = fc.constantFrom(
  '',
  '{',
  '[]',
  'null',
  '"x"',
  '{"todoList": 5}',
  '{"taskId": {}}',
  '{"title": ["a"]}',
  '{"blockedBy": "1"}',
);

type Command =
  | { kind: 'tool'; name: string; args: unknown; agent: string }
  | { kind: 'raw'; name: string; text: string; agent: string }
  | { kind: 'user'; method: string; params: Record<string, unknown> }
  | { kind: 'turn' }
  // Writes from outside the task service, which the service's cached rows must notice:
  // deleting the newest message (its tasks' last_message_id becomes NULL) and a direct row edit.
  | { kind: 'forget' }
  | { kind: 'elsewhere' };

const userCommand: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        taskId: fc.integer({ min: 0, max: 6 }),
        status: fc.option(fc.constantFrom('pending', 'in_progress', 'completed', 'cancelled', 'done'), {
          nil: undefined,
        }),
        title: fc.option(fc.constantFrom('Renamed', '  ', 'x'.repeat(201)), { nil: undefined }),
      })
      .map(({ taskId: id, status: st, title: ti }): Command => ({
        kind: 'user',
        method: 'tasks:update',
        params: { taskId: id, patch: { ...(st ? { status: st } : {}), ...(ti ? { title: ti } : {}) } },
      })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('Added by user', 'Added by user', '  ')
      .map((t): Command => ({ kind: 'user', method: 'tasks:add', params: { title: t } })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0, max: 6 })
      .map((id): Command => ({ kind: 'user', method: 'tasks:delete', params: { taskId: id } })),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.shuffledSubarray([1, 2, 3, 4, 5]), fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 7 }))
      .map((order): Command => ({ kind: 'user', method: 'tasks:reorder', params: { order } })),
  },
  { weight: 1, arbitrary: fc.constant<Command>({ kind: 'user', method: 'tasks:clear', params: {} }) },
);

const fullListCommand: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        items: fc.oneof(
          // Usually ids 1..n (the way models write lists), sometimes with one left out…
          {
            weight: 6,
            arbitrary: fc
              .tuple(
                fc.array(
                  fc.record(
                    { title, status, activeForm: optionalText, description: optionalText },
                    { requiredKeys: ['title', 'status'] },
                  ),
                  { maxLength: 6 },
                ),
                fc.integer({ min: 0, max: 8 }),
              )
              .map(([items, skip]) =>
                items.map((item, i) => ({ id: i + 1, ...item })).filter((item) => item.id !== skip),
              ),
          },
          // …and sometimes any ids at all.
          {
            weight: 1,
            arbitrary: fc.array(
              fc.record(
                { id: taskId, title, status, activeForm: optionalText, description: optionalText },
                { requiredKeys: ['id', 'title', 'status'] },
              ),
              { maxLength: 6 },
            ),
          },
        ),
        agent,
      })
      .map(({ items, agent: a }): Command => ({
        kind: 'tool',
        name: 'manage_todo_list',
        args: { todoList: items },
        agent: a,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ text: garbage, agent })
      .map(({ text, agent: a }): Command => ({ kind: 'raw', name: 'manage_todo_list', text, agent: a })),
  },
  { weight: 3, arbitrary: userCommand },
  { weight: 1, arbitrary: fc.constant<Command>({ kind: 'turn' }) },
  { weight: 1, arbitrary: fc.constantFrom<Command>({ kind: 'forget' }, { kind: 'elsewhere' }) },
);

const granularCommand: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          title,
          description: optionalText,
          activeForm: optionalText,
          blockedBy: fc.option(ids, { nil: undefined }),
          agent,
        },
        { requiredKeys: ['title', 'agent'] },
      )
      .map(({ agent: a, ...args }): Command => ({ kind: 'tool', name: 'task_create', args, agent: a })),
  },
  {
    weight: 5,
    arbitrary: fc
      .record(
        { taskId, status, title, activeForm: optionalText, addBlockedBy: ids, removeBlockedBy: ids, agent },
        { requiredKeys: ['taskId', 'agent'] },
      )
      .map(({ agent: a, ...args }): Command => ({ kind: 'tool', name: 'task_update', args, agent: a })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ taskId, agent }).map(({ taskId: id, agent: a }): Command => ({
      kind: 'tool',
      name: 'task_delete',
      args: { taskId: id },
      agent: a,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ taskId, agent })
      .map(({ taskId: id, agent: a }): Command => ({ kind: 'tool', name: 'task_get', args: { taskId: id }, agent: a })),
  },
  { weight: 1, arbitrary: fc.constant<Command>({ kind: 'raw', name: 'task_list', text: '', agent: 'main' }) },
  {
    weight: 1,
    arbitrary: fc
      .record({ name: fc.constantFrom('task_create', 'task_update', 'task_delete', 'task_get'), text: garbage, agent })
      .map((c): Command => ({ kind: 'raw', ...c })),
  },
  { weight: 3, arbitrary: userCommand },
  { weight: 1, arbitrary: fc.constant<Command>({ kind: 'turn' }) },
  { weight: 1, arbitrary: fc.constantFrom<Command>({ kind: 'forget' }, { kind: 'elsewhere' }) },
);

let dir: string;
let f: TaskFixture;
let dispatch: ReturnType<typeof createDispatcher>;

beforeAll(() => {
  dir = makeTempDir();
  f = createTaskFixture(dir);
  dispatch = createDispatcher(
    { ...taskHandlers({ tasks: f.tasks, conversations: f.conversations }) } as Handlers,
    () => {},
  );
});
afterAll(() => {
  f.close();
  removeDir(dir);
});

/** Runs one command; says whether it failed (and so must have written nothing). */
async function run(
  command: Command,
  conversationId: string,
): Promise<{ failed: boolean; readOnly: boolean; text: string }> {
  const ctx = { conversationId, signal: new AbortController().signal };
  if (command.kind === 'turn') {
    f.messages.insert({ conversationId, role: 'user', content: 'Next, please.' });
    f.messages.insert({ conversationId, role: 'assistant', content: 'On it.' });
    return { failed: false, readOnly: false, text: '' };
  }
  if (command.kind === 'forget') {
    f.db
      .prepare('DELETE FROM messages WHERE id = (SELECT MAX(id) FROM messages WHERE conversation_id = ?)')
      .run(conversationId);
    return { failed: false, readOnly: false, text: '' };
  }
  if (command.kind === 'elsewhere') {
    f.db
      .prepare(
        "UPDATE tasks SET description = 'Edited elsewhere', updated_at = updated_at + 1 WHERE id = (SELECT MIN(t.id) FROM tasks t JOIN task_lists l ON l.id = t.list_id WHERE l.conversation_id = ? AND l.closed_at IS NULL)",
      )
      .run(conversationId);
    return { failed: false, readOnly: false, text: '' };
  }
  if (command.kind === 'user') {
    const result = await dispatch(command.method, { conversationId, ...command.params });
    if (!result.ok) expect(result.error.code, result.error.message).not.toBe('internal');
    return { failed: !result.ok, readOnly: false, text: result.ok ? '' : result.error.message };
  }
  const raw = command.kind === 'raw' ? command.text : JSON.stringify(command.args);
  const result = await f.registry.run(command.name, raw, { ...ctx, agentId: command.agent });
  // A handler that threw would surface as "Tool … failed"; ours return every failure.
  expect(result.content).not.toMatch(/^Tool \w+ failed|Internal error/);
  const readOnly = command.name === 'task_get' || command.name === 'task_list';
  if (!result.ok) return { failed: true, readOnly, text: result.content };
  if (command.name === 'manage_todo_list')
    return { failed: result.content.startsWith('Error:'), readOnly, text: result.content };
  const parsed = JSON.parse(result.content) as { ok: boolean };
  return { failed: !parsed.ok, readOnly, text: result.content };
}

function checkInvariants(list: TaskList | null, conversationId: string) {
  const open = f.db
    .prepare('SELECT COUNT(*) AS n FROM task_lists WHERE conversation_id = ? AND closed_at IS NULL')
    .get(conversationId) as { n: number };
  expect(open.n).toBe(list ? 1 : 0);
  if (!list) return;
  const tasks = list.tasks;
  expect(tasks.length).toBeGreaterThan(0);
  const idSet = new Set(tasks.map((t) => t.id));
  expect(idSet.size).toBe(tasks.length);
  for (const t of tasks) {
    expect(Number.isInteger(t.id) && t.id >= 1).toBe(true);
    expect(t.title.trim()).toBe(t.title);
    expect(t.title.length).toBeGreaterThan(0);
    expect(t.title.length).toBeLessThanOrEqual(200);
    for (const b of t.blockedBy) expect(idSet.has(b)).toBe(true);
    const byId = new Map(tasks.map((x) => [x.id, x]));
    expect(t.openBlockers).toEqual(t.blockedBy.filter((b) => ['pending', 'in_progress'].includes(byId.get(b)!.status)));
    expect(t.completedAt === null).toBe(t.status !== 'completed');
  }
  expect(tasks.map((t) => t.position)).toEqual(tasks.map((_, i) => i));
  const owners = tasks.filter((t) => t.status === 'in_progress').map((t) => t.owner);
  expect(new Set(owners).size).toBe(owners.length);
  expect(findCycle(tasks)).toBeNull();
}

async function runSequence(commands: Command[]) {
  const conversationId = f.conversations.create('property').id;
  try {
    for (const command of commands) {
      const before = dumpTaskTables(f.db);
      const listBefore = f.tasks.store.openTaskList(conversationId);
      const eventsBefore = f.events.length;
      const outcome = await run(command, conversationId);
      // A fresh read from SQLite, past the service's cached rows; what the service says must equal it.
      const list = f.tasks.store.openTaskList(conversationId);
      expect(f.tasks.get(conversationId)).toEqual(list);
      if (outcome.failed || outcome.readOnly) {
        expect(dumpTaskTables(f.db), `${JSON.stringify(command)} → ${outcome.text}`).toEqual(before);
        expect(f.events.length).toBe(eventsBefore);
      } else {
        const pushed = f.events.slice(eventsBefore).filter((e) => e.event === 'tasks:changed');
        if (pushed.length) expect(pushed.at(-1)!.payload).toEqual({ conversationId, list });
      }
      // The sidebar counts its badge from the pushed list; the page query counts it in SQL.
      expect(taskBadge(list?.tasks)).toEqual(f.tasks.badges([conversationId]).get(conversationId) ?? null);
      checkInvariants(list, conversationId);
      // A task that just started or completed had no unfinished blocker.
      const old = new Map((listBefore?.tasks ?? []).map((t) => [t.id, t]));
      for (const t of list?.tasks ?? []) {
        const moved = (t.status === 'in_progress' || t.status === 'completed') && old.get(t.id)?.status !== t.status;
        if (moved) expect(t.openBlockers, `task ${t.id} after ${JSON.stringify(command)}`).toEqual([]);
      }
      // New granular tasks continue the numbering (or start a new list at 1).
      if (!outcome.failed && command.kind === 'tool' && command.name === 'task_create') {
        const made = (JSON.parse(outcome.text) as { task: { id: number }; note?: string }).task.id;
        const base = (JSON.parse(outcome.text) as { note?: string }).note ? [] : (listBefore?.tasks ?? []);
        expect(made).toBe(Math.max(0, ...base.map((t) => t.id)) + 1);
      }
    }
  } finally {
    f.conversations.delete(conversationId);
    f.events.length = 0;
  }
}

describe('property: random task calls', () => {
  it(`full-list style with user edits (${RUNS} runs)`, async () => {
    await fc.assert(fc.asyncProperty(fc.array(fullListCommand, { minLength: 1, maxLength: 12 }), runSequence), {
      numRuns: RUNS,
    });
  }, 120_000);

  it(`granular style with user edits (${RUNS} runs)`, async () => {
    // Often a few tasks first, so that updates, dependencies and deletes have something to work on.
    const setup = fc.integer({ min: 0, max: 4 }).map((n) =>
      Array.from({ length: n }, (_, i): Command => ({
        kind: 'tool',
        name: 'task_create',
        args: { title: `Step ${i + 1}` },
        agent: 'main',
      })),
    );
    const sequence = fc
      .tuple(setup, fc.array(granularCommand, { minLength: 1, maxLength: 14 }))
      .map(([first, rest]) => [...first, ...rest]);
    await fc.assert(fc.asyncProperty(sequence, runSequence), { numRuns: RUNS });
  }, 120_000);
});
