import { beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher, type Handlers } from '../../src/main/core/ipc/dispatcher';
import { taskHandlers } from '../../src/main/core/tasks/taskHandlers';
import { conversationHandlers } from '../../src/main/core/conversations/conversationHandlers';
import type { TaskList } from '../../src/shared/tasks';
import { dumpTaskTables, taskFixturePerTest } from '../support/taskFixture';

const f = taskFixturePerTest();
let dispatch: ReturnType<typeof createDispatcher>;
beforeEach(async () => {
  const handlers = {
    ...conversationHandlers({ conversations: f.conversations, messages: f.messages, bus: f.bus }),
    ...taskHandlers({ tasks: f.tasks, conversations: f.conversations }),
  } as Handlers;
  dispatch = createDispatcher(handlers, () => {});
  await f.call('manage_todo_list', {
    todoList: [
      { id: 1, title: 'Book flights', status: 'completed' },
      { id: 2, title: 'Find a hotel', status: 'in_progress' },
      { id: 3, title: 'Rent a car', status: 'pending' },
      { id: 4, title: 'Pack', status: 'pending' },
    ],
  });
});

async function ok(method: string, params: Record<string, unknown>): Promise<TaskList | null> {
  const result = await dispatch(method, { conversationId: f.conversationId, ...params });
  if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
  return (result.value as { list: TaskList | null }).list;
}

const lastEvents = (n: number) =>
  (
    f.db.prepare('SELECT actor, kind FROM task_events ORDER BY id DESC LIMIT ?').all(n) as Array<{
      actor: string;
      kind: string;
    }>
  ).reverse();

describe('the user edits the list from the header', () => {
  it('tasks:get returns the open list', async () => {
    const list = await ok('tasks:get', {});
    expect(list!.tasks.map((t) => t.title)).toEqual(['Book flights', 'Find a hotel', 'Rent a car', 'Pack']);
  });

  it('ticks and unticks, renames, adds, deletes and reorders, recorded as the user', async () => {
    const ticked = await ok('tasks:update', { taskId: 3, patch: { status: 'completed' } });
    expect(ticked!.tasks[2]).toMatchObject({ id: 3, status: 'completed' });
    const unticked = await ok('tasks:update', { taskId: 1, patch: { status: 'pending' } });
    expect(unticked!.tasks[0]).toMatchObject({ status: 'pending', completedAt: null });
    const renamed = await ok('tasks:update', { taskId: 4, patch: { title: '  Pack light ' } });
    expect(renamed!.tasks[3].title).toBe('Pack light');
    const added = await ok('tasks:add', { title: 'Buy snacks' });
    expect(added!.tasks.at(-1)).toMatchObject({ id: 5, title: 'Buy snacks', status: 'pending', owner: 'main' });
    const deleted = await ok('tasks:delete', { taskId: 2 });
    expect(deleted!.tasks.map((t) => t.id)).toEqual([1, 3, 4, 5]);
    const reordered = await ok('tasks:reorder', { order: [5, 1, 4, 3] });
    expect(reordered!.tasks.map((t) => [t.id, t.position])).toEqual([
      [5, 0],
      [1, 1],
      [4, 2],
      [3, 3],
    ]);
    expect(lastEvents(6)).toEqual([
      { actor: 'user', kind: 'updated' },
      { actor: 'user', kind: 'updated' },
      { actor: 'user', kind: 'updated' },
      { actor: 'user', kind: 'created' },
      { actor: 'user', kind: 'deleted' },
      { actor: 'user', kind: 'reordered' },
    ]);
    // Every change was pushed with the list as the call returned it.
    expect(f.tasksChanged().at(-1)).toEqual({ conversationId: f.conversationId, list: reordered });
  });

  it('the user starting a task does not take it from its owner', async () => {
    await f.call('task_update', { taskId: 3, status: 'in_progress' }, 'worker-1');
    await ok('tasks:update', { taskId: 3, patch: { status: 'pending' } });
    const list = await ok('tasks:update', { taskId: 3, patch: { status: 'in_progress' } });
    expect(list!.tasks[2]).toMatchObject({ owner: 'worker-1', status: 'in_progress' });
  });

  it.each([
    [
      'an unknown task',
      'tasks:update',
      { taskId: 9, patch: { status: 'completed' } },
      'not_found',
      'Task 9 not found (this list has tasks 1–4)',
    ],
    [
      'a second task in progress',
      'tasks:update',
      { taskId: 3, patch: { status: 'in_progress' } },
      'conflict',
      'Only one task may be in_progress at a time',
    ],
    [
      'an empty title',
      'tasks:update',
      { taskId: 3, patch: { title: '   ' } },
      'invalid_request',
      'title must not be empty',
    ],
    [
      'an unknown status word',
      'tasks:update',
      { taskId: 3, patch: { status: 'done' } },
      'invalid_request',
      'patch.status',
    ],
    [
      'a reorder that drops a task',
      'tasks:reorder',
      { order: [1, 2, 3] },
      'conflict',
      'The new order must list tasks 1–4 once each (missing 4)',
    ],
    ['a reorder with a stranger', 'tasks:reorder', { order: [1, 2, 3, 4, 7] }, 'conflict', 'unknown 7'],
    ['deleting an unknown task', 'tasks:delete', { taskId: 8 }, 'not_found', 'Task 8 not found'],
  ])('refuses %s, changing nothing', async (_name, method, params, code, message) => {
    const before = dumpTaskTables(f.db);
    const result = await dispatch(method, { conversationId: f.conversationId, ...params });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.error.message).toContain(message);
    }
    expect(dumpTaskTables(f.db)).toEqual(before);
  });

  it('"Clear tasks" closes the list, keeps it in history, and the badge goes', async () => {
    const listed = await dispatch('conversations:list', {});
    expect(listed.ok && (listed.value as { items: Array<{ tasks: unknown }> }).items[0].tasks).toEqual({
      done: 1,
      total: 4,
    });
    expect(await ok('tasks:clear', {})).toBeNull();
    expect(await ok('tasks:get', {})).toBeNull();
    expect(f.tasksChanged().at(-1)).toEqual({ conversationId: f.conversationId, list: null });
    expect(f.tasks.history(f.conversationId)[0].closedAt).not.toBeNull();
    const after = await dispatch('conversations:list', {});
    expect(after.ok && (after.value as { items: Array<{ tasks: unknown }> }).items[0].tasks).toBeNull();
    // Clearing again is harmless; editing without a list says so.
    expect(await ok('tasks:clear', {})).toBeNull();
    const edit = await dispatch('tasks:update', {
      conversationId: f.conversationId,
      taskId: 1,
      patch: { status: 'completed' },
    });
    expect(edit).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'This conversation has no open task list.' },
    });
  });

  it('adding to a conversation without a list starts one at id 1', async () => {
    await ok('tasks:clear', {});
    const list = await ok('tasks:add', { title: 'Water the plants' });
    expect(list!.tasks.map((t) => [t.id, t.title])).toEqual([[1, 'Water the plants']]);
  });

  it('deleting the last task closes the list', async () => {
    for (const id of [1, 2, 3]) await ok('tasks:delete', { taskId: id });
    expect(await ok('tasks:delete', { taskId: 4 })).toBeNull();
    expect(f.tasks.history(f.conversationId)).toHaveLength(1);
  });

  it('removes a dependency the user drops ("Remove dependency on #N")', async () => {
    expect(await f.callJson('task_update', { taskId: 4, addBlockedBy: [3] })).toMatchObject({ ok: true });
    const list = await ok('tasks:update', { taskId: 4, patch: { removeBlockedBy: [3] } });
    expect(list!.tasks[3]).toMatchObject({ id: 4, blockedBy: [], openBlockers: [] });
  });

  it('Undo of a delete puts the task back with its fields, place and dependencies', async () => {
    expect(
      await f.callJson('task_update', { taskId: 3, addBlockedBy: [2], description: 'An estate car.' }),
    ).toMatchObject({ ok: true });
    expect(await f.callJson('task_update', { taskId: 4, addBlockedBy: [3] })).toMatchObject({ ok: true });
    const before = (await ok('tasks:get', {}))!;
    const gone = before.tasks[2];
    await ok('tasks:delete', { taskId: 3 });
    const { id, title, description, activeForm, status, owner, blockedBy, lastMessageId } = gone;
    const back = await ok('tasks:restore', {
      task: { id, title, description, activeForm, status, owner, blockedBy, lastMessageId },
      position: 2,
      blocks: [4],
    });
    const shape = (list: TaskList) =>
      list.tasks.map((t) => [t.id, t.title, t.description, t.status, t.owner, t.position, t.blockedBy]);
    expect(shape(back!)).toEqual(shape(before));
    // A task with that id again: the undo is refused with a reason, nothing changes.
    const again = await dispatch('tasks:restore', {
      conversationId: f.conversationId,
      task: { id, title, description, activeForm, status, owner, blockedBy, lastMessageId },
      position: 0,
      blocks: [],
    });
    expect(again).toMatchObject({ ok: false, error: { message: expect.stringMatching(/cannot come back/) } });
    expect(shape((await ok('tasks:get', {}))!)).toEqual(shape(before));
  });

  it('Undo of deleting the last task opens the list again with it', async () => {
    for (const id of [1, 2, 3]) await ok('tasks:delete', { taskId: id });
    expect(await ok('tasks:delete', { taskId: 4 })).toBeNull();
    const back = await ok('tasks:restore', {
      task: {
        id: 4,
        title: 'Pack',
        description: '',
        activeForm: '',
        status: 'pending',
        owner: 'main',
        blockedBy: [],
        lastMessageId: null,
      },
      position: 0,
      blocks: [],
    });
    expect(back!.tasks.map((t) => [t.id, t.title])).toEqual([[4, 'Pack']]);
  });

  it('an unknown conversation is not found', async () => {
    const result = await dispatch('tasks:get', { conversationId: '00000000-0000-4000-8000-000000000001' });
    expect(result).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('records the message the user was looking at when the task changed', async () => {
    const reply = f.say('assistant', 'Booked.');
    const list = await ok('tasks:update', { taskId: 3, patch: { status: 'completed' } });
    expect(list!.tasks[2].lastMessageId).toBe(reply.id);
  });
});
