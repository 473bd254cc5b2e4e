import { describe, expect, it } from 'vitest';
import { dumpTaskTables, taskFixturePerTest } from '../support/taskFixture';

const f = taskFixturePerTest();

async function fiveTasks() {
  for (const title of ['Set up database', 'Create API', 'Add auth', 'Integration tests', 'Deploy']) {
    await f.callJson('task_create', { title });
  }
}

describe('granular task tools', () => {
  it('task_create numbers tasks 1..n and answers JSON', async () => {
    const first = await f.callJson('task_create', {
      title: '  Set up database ',
      activeForm: 'Setting up the database',
    });
    expect(first).toEqual({
      ok: true,
      task: {
        id: 1,
        title: 'Set up database',
        status: 'pending',
        activeForm: 'Setting up the database',
        owner: 'main',
        blockedBy: [],
      },
      progress: '0/1 completed',
    });
    const second = await f.callJson('task_create', { title: 'Create API', blockedBy: [1] });
    expect(second).toMatchObject({ ok: true, task: { id: 2, blockedBy: [1], blocked: true, openBlockers: [1] } });
    expect(f.list()!.tasks.map((t) => [t.id, t.openBlockers])).toEqual([
      [1, []],
      [2, [1]],
    ]);
  });

  it('task_list takes an empty argument string', async () => {
    expect(await f.callJson('task_list', '')).toMatchObject({
      ok: true,
      tasks: [],
      note: expect.stringContaining('no open task list'),
    });
    await fiveTasks();
    const listed = await f.callJson('task_list', '');
    expect(listed).toMatchObject({ ok: true, progress: '0/5 completed' });
    expect((listed.tasks as Array<{ id: number }>).map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
    expect(await f.callJson('task_list', '{}')).toEqual(listed);
  });

  it('unknown ids say which ids exist', async () => {
    await fiveTasks();
    for (const [name, args] of [
      ['task_update', { taskId: 7, status: 'completed' }],
      ['task_get', { taskId: 7 }],
      ['task_delete', { taskId: 7 }],
    ] as const) {
      expect(await f.callJson(name, args)).toEqual({ ok: false, error: 'Task 7 not found (this list has tasks 1–5).' });
    }
  });

  it('dependencies: a blocked task cannot start; completing the blocker frees it with no extra call', async () => {
    await fiveTasks();
    await f.callJson('task_update', { taskId: 2, addBlockedBy: [1] });
    await f.callJson('task_update', { taskId: 4, addBlockedBy: ['2', 3] });
    const refused = await f.callJson('task_update', { taskId: 4, status: 'in_progress' });
    expect(refused).toEqual({
      ok: false,
      error:
        'Task 4 cannot be started: it is blocked by 2 and 3, which are not completed yet. Finish them first or remove the dependency.',
    });
    await f.callJson('task_update', { taskId: 1, status: 'in_progress' });
    const done = await f.callJson('task_update', { taskId: 1, status: 'done' });
    expect(done).toMatchObject({
      ok: true,
      task: { id: 1, status: 'completed' },
      unblocked: [2],
      progress: '1/5 completed',
    });
    expect(f.list()!.tasks.find((t) => t.id === 2)!.openBlockers).toEqual([]);
    expect(await f.callJson('task_update', { taskId: 2, status: 'in_progress' })).toMatchObject({ ok: true });
  });

  it('rejects a dependency cycle, naming it', async () => {
    await fiveTasks();
    await f.callJson('task_update', { taskId: 2, addBlockedBy: [1] });
    await f.callJson('task_update', { taskId: 3, addBlockedBy: [2] });
    const before = dumpTaskTables(f.db);
    const cycle = await f.callJson('task_update', { taskId: 1, addBlockedBy: [3] });
    expect(cycle).toEqual({
      ok: false,
      error: 'Dependencies would form a cycle: 1 → 3 → 2 → 1. Remove one of these dependencies.',
    });
    expect(dumpTaskTables(f.db)).toEqual(before);
    expect(await f.callJson('task_update', { taskId: 1, addBlockedBy: [1] })).toMatchObject({
      error: 'Task 1 cannot be blocked by itself.',
    });
    expect(await f.callJson('task_create', { title: 'X', blockedBy: [9] })).toMatchObject({
      ok: false,
      error: 'blockedBy: Task 9 not found (this list has tasks 1–5).',
    });
  });

  it('only one task in progress per owner; workers own what they start', async () => {
    await fiveTasks();
    await f.callJson('task_update', { taskId: 1, status: 'in_progress' });
    expect(await f.callJson('task_update', { taskId: 2, status: 'in-progress' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('Only one task may be in_progress at a time; tasks 1 and 2 are'),
    });
    expect(await f.callJson('task_update', { taskId: 2, status: 'in_progress' }, 'worker-1')).toMatchObject({
      ok: true,
      task: { id: 2, owner: 'worker-1', status: 'in_progress' },
    });
    expect(await f.callJson('task_update', { taskId: 3, status: 'in_progress' }, 'worker-1')).toMatchObject({
      ok: false,
      error: expect.stringContaining('for worker-1; tasks 2 and 3'),
    });
    const made = await f.callJson('task_create', { title: 'Worker subtask' }, 'worker-2');
    expect(made).toMatchObject({ task: { id: 6, owner: 'worker-2' } });
    const actors = f.db.prepare('SELECT DISTINCT actor FROM task_events ORDER BY actor').all();
    expect(actors).toEqual([{ actor: 'model' }, { actor: 'worker-1' }, { actor: 'worker-2' }]);
  });

  it('task_get shows the description and what the task blocks', async () => {
    await f.callJson('task_create', { title: 'Schema', description: 'Tables and indexes' });
    await f.callJson('task_create', { title: 'API', blockedBy: [1] });
    expect(await f.callJson('task_get', { taskId: '1' })).toEqual({
      ok: true,
      task: {
        id: 1,
        title: 'Schema',
        status: 'pending',
        description: 'Tables and indexes',
        owner: 'main',
        blockedBy: [],
        blocks: [2],
      },
    });
  });

  it('task_update edits fields, and says when nothing changed', async () => {
    await f.callJson('task_create', { title: 'Schema' });
    const edited = await f.callJson('task_update', {
      taskId: 1,
      title: 'Design schema',
      description: 'Tables',
      activeForm: 'Designing schema',
    });
    expect(edited).toMatchObject({
      ok: true,
      task: { title: 'Design schema', description: 'Tables', activeForm: 'Designing schema' },
    });
    expect(await f.callJson('task_update', { taskId: 1, title: 'Design schema' })).toMatchObject({
      ok: true,
      note: 'Nothing changed.',
    });
    expect(await f.callJson('task_update', { taskId: 1, status: 'wip' })).toEqual({
      ok: false,
      error:
        'Unknown status "wip". Use one of: not-started, pending, in-progress, in_progress, completed, done, cancelled.',
    });
    expect(await f.callJson('task_update', { taskId: 1, title: '' })).toEqual({
      ok: false,
      error: 'title must not be empty.',
    });
  });

  it('task_delete removes a task and frees what it blocked; the last one closes the list', async () => {
    await f.callJson('task_create', { title: 'Schema' });
    await f.callJson('task_create', { title: 'API', blockedBy: [1] });
    expect(await f.callJson('task_delete', { taskId: 1 })).toEqual({
      ok: true,
      deleted: { id: 1, title: 'Schema' },
      unblocked: [2],
      progress: '0/1 completed',
    });
    expect(f.list()!.tasks.map((t) => [t.id, t.blockedBy])).toEqual([[2, []]]);
    // The deleted task's history stays, naming no task any more: all of it, not only the last event.
    const deleted = f.db
      .prepare("SELECT task_id, list_id, before FROM task_events WHERE kind = 'deleted'")
      .get() as Record<string, unknown>;
    expect(deleted.task_id).toBeNull();
    expect(f.db.prepare("SELECT kind, task_id FROM task_events WHERE kind <> 'updated' ORDER BY id").all()).toEqual([
      { kind: 'created', task_id: null },
      { kind: 'created', task_id: expect.any(Number) },
      { kind: 'deleted', task_id: null },
    ]);
    expect(deleted.list_id).toBe(f.list()!.id);
    expect(JSON.parse(deleted.before as string)).toMatchObject({ id: 1, title: 'Schema' });
    expect(await f.callJson('task_delete', { taskId: 2 })).toMatchObject({
      ok: true,
      progress: expect.stringContaining('closed'),
    });
    expect(f.list()).toBeNull();
  });

  it('schema errors come back from the registry as text and change nothing', async () => {
    await fiveTasks();
    const before = dumpTaskTables(f.db);
    const results = [
      await f.call('task_update', '{"taskId": "abc"}'),
      await f.call('task_create', '{"title": 5}'),
      await f.call('task_create', 'not json'),
      await f.call('task_get', '{}'),
    ];
    for (const result of results) expect(result.ok).toBe(false);
    expect(results.map((r) => r.content)).toEqual([
      expect.stringContaining('Invalid arguments for task_update'),
      expect.stringContaining('Invalid arguments for task_create'),
      expect.stringContaining('not valid JSON'),
      'Invalid arguments for task_get: taskId is required.',
    ]);
    expect(dumpTaskTables(f.db)).toEqual(before);
  });
});
