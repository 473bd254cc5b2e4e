import { describe, expect, it } from 'vitest';
import { taskBadge } from '../../src/shared/taskProgress';
import { dumpTaskTables, taskFixturePerTest } from '../support/taskFixture';

const plan = (
  statuses: string[],
  titles = ['Set up project', 'Create data models', 'Build UI widget', 'Write tests', 'Ship it'],
) => statuses.map((status, i) => ({ id: i + 1, title: titles[i], status }));

const f = taskFixturePerTest();

async function manage(todoList: unknown, agentId = 'main') {
  return f.call('manage_todo_list', { todoList }, agentId);
}

describe('manage_todo_list', () => {
  it('creates the list, reports progress and pushes tasks:changed with the list', async () => {
    const result = await manage(plan(['in-progress', 'not-started', 'not-started', 'not-started', 'not-started']));
    expect(result).toEqual({ ok: true, content: 'Task list updated: 0/5 completed' });
    const list = f.list()!;
    expect(list.tasks.map((t) => [t.id, t.status, t.position])).toEqual([
      [1, 'in_progress', 0],
      [2, 'pending', 1],
      [3, 'pending', 2],
      [4, 'pending', 3],
      [5, 'pending', 4],
    ]);
    expect(f.tasksChanged()).toEqual([{ conversationId: f.conversationId, list }]);
    // The sidebar badge follows from that one event; the stored summary agrees.
    expect(taskBadge(list.tasks)).toEqual({ done: 0, total: 5 });
    expect(f.conversations.summary(f.conversationId)?.tasks).toEqual({ done: 0, total: 5 });
    expect(f.events.filter((e) => e.event === 'conversations:changed')).toEqual([]);
  });

  it('updates in place by id and counts completed tasks', async () => {
    await manage(plan(['in_progress', 'pending', 'pending', 'pending', 'pending']));
    const result = await manage(plan(['done', 'completed', 'in_progress', 'pending', 'pending']));
    expect(result.content).toBe('Task list updated: 2/5 completed');
    expect(f.list()!.tasks.map((t) => t.status)).toEqual([
      'completed',
      'completed',
      'in_progress',
      'pending',
      'pending',
    ]);
    expect(f.list()!.tasks[0].completedAt).not.toBeNull();
  });

  it('a call that changes nothing writes nothing and pushes nothing; one changed task writes one row and one history row', async () => {
    await manage(plan(['in_progress', 'pending', 'pending', 'pending', 'pending']));
    const historyRows = () => (f.db.prepare('SELECT COUNT(*) AS n FROM task_events').get() as { n: number }).n;
    const before = dumpTaskTables(f.db);
    const history = historyRows();
    const pushes = f.tasksChanged().length;
    const same = await manage(plan(['in_progress', 'pending', 'pending', 'pending', 'pending']));
    expect(same.content).toBe('Task list updated: 0/5 completed');
    expect(dumpTaskTables(f.db)).toEqual(before);
    expect(historyRows()).toBe(history);
    expect(f.tasksChanged()).toHaveLength(pushes);

    const changed = await manage(plan(['completed', 'pending', 'pending', 'pending', 'pending']));
    expect(changed.content).toBe('Task list updated: 1/5 completed');
    expect(historyRows()).toBe(history + 1);
    const event = f.db.prepare('SELECT kind, before, after FROM task_events ORDER BY id DESC LIMIT 1').get();
    expect(event).toEqual({
      kind: 'updated',
      before: '{"id":1,"status":"in_progress"}',
      after: '{"id":1,"status":"completed"}',
    });
    const rowsAfter = f.db.prepare('SELECT seq, status FROM tasks ORDER BY seq').all() as Array<{
      seq: number;
      status: string;
    }>;
    expect(rowsAfter.map((r) => r.status)).toEqual(['completed', 'pending', 'pending', 'pending', 'pending']);
    expect(f.tasksChanged()).toHaveLength(pushes + 1);
    expect(f.tasksChanged().at(-1)).toEqual({ conversationId: f.conversationId, list: f.list() });
  });

  it('warns, naming them, when items that were in the list are missing from the call', async () => {
    await manage(plan(['in_progress', 'pending', 'pending', 'pending', 'pending']));
    const items = plan(['in_progress', 'pending', 'pending', 'pending', 'pending']).filter((t) => t.id !== 4);
    const result = await manage(items);
    expect(result.content).toContain('Task list updated: 0/4 completed');
    expect(result.content).toMatch(
      /Warning: task 4 "Write tests" was in the list but is missing from this call, so it was removed/,
    );
    expect(f.list()!.tasks.map((t) => t.id)).toEqual([1, 2, 3, 5]);
    // The model can restore it with the same id.
    const restored = await manage(plan(['in_progress', 'pending', 'pending', 'pending', 'pending']));
    expect(restored.content).toBe('Task list updated: 0/5 completed');
  });

  it('warns when more than 3 tasks change status at once', async () => {
    await manage(plan(['in_progress', 'pending', 'pending', 'pending', 'pending']));
    const result = await manage(plan(['completed', 'completed', 'completed', 'completed', 'pending']));
    expect(result.content).toContain('Task list updated: 4/5 completed');
    expect(result.content).toMatch(
      /Warning: 4 tasks changed status in one call \(1–4\)\. Mark each task completed as soon as it is done/,
    );
    const three = await manage(plan(['completed', 'completed', 'pending', 'pending', 'in_progress']));
    expect(three.content).not.toContain('changed status in one call');
  });

  it('notes a list of fewer than 3 items', async () => {
    const result = await manage(plan(['in_progress', 'pending']));
    expect(result.content).toMatch(/^Task list updated: 0\/2 completed\nNote: the list has fewer than 3 items/);
  });

  it.each([
    [
      'an unknown status',
      plan(['in_progress', 'wip', 'pending']),
      /todoList\[1\] \(id 2\): Unknown status "wip"\. Use one of: not-started, pending, in-progress, in_progress, completed, done, cancelled/,
    ],
    [
      'two tasks in progress',
      plan(['in_progress', 'in_progress', 'pending']),
      /Only one task may be in_progress at a time; tasks 1 and 2 are/,
    ],
    [
      'an empty title',
      [{ id: 1, title: '  ', status: 'pending' }, ...plan(['pending', 'pending']).map((t) => ({ ...t, id: t.id + 1 }))],
      /todoList\[0\] \(id 1\): title must not be empty/,
    ],
    [
      'duplicate ids',
      [...plan(['pending', 'pending']), { id: 2, title: 'Again', status: 'pending' }],
      /Task ids must be unique in a list: 2 used more than once/,
    ],
    ['a bad id', [{ id: 'seven', title: 'Seven', status: 'pending' }], /Invalid arguments for manage_todo_list/],
  ])('rejects %s and writes nothing', async (_name, items, message) => {
    await manage(plan(['completed', 'in_progress', 'pending']));
    const before = dumpTaskTables(f.db);
    const eventsBefore = f.events.length;
    const result = await manage(items);
    expect(result.content).toMatch(message);
    expect(dumpTaskTables(f.db)).toEqual(before);
    expect(f.events.length).toBe(eventsBefore);
  });

  it('accepts ids written as text', async () => {
    const result = await manage([
      { id: '1', title: 'One', status: 'pending' },
      { id: '#2', title: 'Two', status: 'pending' },
      { id: 3, title: 'Three', status: 'pending' },
    ]);
    expect(result.content).toBe('Task list updated: 0/3 completed');
    expect(f.list()!.tasks.map((t) => t.id)).toEqual([1, 2, 3]);
  });

  it('reads unusual spellings the way it reads plain ones, and refuses a title of Unicode spaces', async () => {
    // Plain items (whole id, canonical status, clean title) take a shorter path than these.
    const result = await manage([
      { id: 1, title: '  Padded title\u00a0', status: 'Completed' },
      { id: 2, title: 'Éclair recipe', status: ' in-progress ' },
      { id: 3, title: 'Plain', status: 'pending' },
    ]);
    expect(result.content).toBe('Task list updated: 1/3 completed');
    expect(f.list()!.tasks.map((t) => [t.title, t.status])).toEqual([
      ['Padded title', 'completed'],
      ['Éclair recipe', 'in_progress'],
      ['Plain', 'pending'],
    ]);
    const refused = await manage([{ id: 1, title: '\u00a0\u2003', status: 'pending' }]);
    expect(refused.content).toMatch(/todoList\[0\] \(id 1\): title must not be empty/);
    expect(f.list()!.tasks).toHaveLength(3);
  });

  it('keeps descriptions and activeForm unless the call changes them, and records events with actor model', async () => {
    await manage([
      {
        id: 1,
        title: 'Write tests',
        description: 'Unit and property',
        activeForm: 'Writing tests',
        status: 'in_progress',
      },
      { id: 2, title: 'Review', status: 'pending' },
      { id: 3, title: 'Release', status: 'pending' },
    ]);
    await manage(plan(['in_progress', 'pending', 'pending'], ['Write tests', 'Review code', 'Release']));
    const task = f.list()!.tasks[0];
    expect([task.description, task.activeForm]).toEqual(['Unit and property', 'Writing tests']);
    const rows = f.db.prepare('SELECT actor, kind, before, after FROM task_events ORDER BY id').all() as Array<
      Record<string, string>
    >;
    expect(rows.map((r) => [r.actor, r.kind])).toEqual([
      ['model', 'created'],
      ['model', 'created'],
      ['model', 'created'],
      ['model', 'updated'],
    ]);
    expect(JSON.parse(rows[3].before)).toEqual({ id: 2, title: 'Review' });
    expect(JSON.parse(rows[3].after)).toEqual({ id: 2, title: 'Review code' });
  });

  it('an empty call closes the list', async () => {
    await manage(plan(['in_progress', 'pending', 'pending']));
    const result = await manage([]);
    expect(result.content).toMatch(/Task list cleared/);
    expect(f.list()).toBeNull();
    expect(f.tasks.history(f.conversationId)).toHaveLength(1);
    expect(f.tasksChanged().at(-1)).toEqual({ conversationId: f.conversationId, list: null });
  });

  it('records the assistant message that made the change', async () => {
    f.say('user');
    const reply = f.say('assistant');
    await manage(plan(['in_progress', 'pending', 'pending']));
    expect(f.list()!.tasks.map((t) => t.lastMessageId)).toEqual([reply.id, reply.id, reply.id]);
    const next = f.say('assistant');
    await manage(plan(['completed', 'in_progress', 'pending']));
    expect(f.list()!.tasks.map((t) => t.lastMessageId)).toEqual([next.id, next.id, reply.id]);
  });
});

describe('lifecycle', () => {
  it('a finished list stays open until a later turn starts a new plan, which restarts ids at 1', async () => {
    f.say('user');
    f.say('assistant');
    await manage(plan(['in_progress', 'pending', 'pending']));
    await manage(plan(['completed', 'completed', 'completed']));
    expect(f.list()!.tasks.every((t) => t.status === 'completed')).toBe(true);

    // Same turn: another call updates the finished list rather than replacing it.
    const same = await manage(
      plan(
        ['completed', 'completed', 'completed', 'in_progress'],
        ['Set up project', 'Create data models', 'Build UI widget', 'Fix a late bug'],
      ),
    );
    expect(same.content).toBe('Task list updated: 3/4 completed');
    await manage(
      plan(
        ['completed', 'completed', 'completed', 'completed'],
        ['Set up project', 'Create data models', 'Build UI widget', 'Fix a late bug'],
      ),
    );
    const finished = f.list()!;

    // The user writes again; a new plan closes the finished list (kept in history).
    f.say('user', 'Now deploy it');
    f.say('assistant');
    const fresh = await manage(plan(['in_progress', 'pending', 'pending'], ['Build image', 'Push image', 'Roll out']));
    expect(fresh.content).toContain('Started a new task list; the finished one was closed and kept in history.');
    const list = f.list()!;
    expect(list.id).not.toBe(finished.id);
    expect(list.tasks.map((t) => [t.id, t.title])).toEqual([
      [1, 'Build image'],
      [2, 'Push image'],
      [3, 'Roll out'],
    ]);
    const history = f.tasks.history(f.conversationId);
    expect(history.map((l) => [l.id, l.closedAt !== null, l.tasks.length])).toEqual([
      [finished.id, true, 4],
      [list.id, false, 3],
    ]);
  });

  it('re-sending the finished list with more items extends it in a later turn', async () => {
    await manage(plan(['completed', 'completed', 'completed']));
    f.say('user', 'One more thing');
    const result = await manage(plan(['completed', 'completed', 'completed', 'in_progress']));
    expect(result.content).toBe('Task list updated: 3/4 completed');
    expect(f.tasks.history(f.conversationId)).toHaveLength(1);
  });

  it('task_create in a later turn starts a new list at id 1', async () => {
    await f.callJson('task_create', { title: 'Only step' });
    await f.callJson('task_update', { taskId: 1, status: 'completed' });
    const same = await f.callJson('task_create', { title: 'Late step' });
    expect(same).toMatchObject({ ok: true, task: { id: 2 } });
    await f.callJson('task_update', { taskId: 2, status: 'completed' });
    f.say('user', 'Next job');
    const fresh = await f.callJson('task_create', { title: 'New job' });
    expect(fresh).toMatchObject({
      ok: true,
      task: { id: 1, title: 'New job' },
      note: expect.stringContaining('Started a new task list'),
    });
    expect(f.tasks.history(f.conversationId)).toHaveLength(2);
  });

  it('close() closes the open list and is a no-op without one', async () => {
    await manage(plan(['in_progress', 'pending', 'pending']));
    expect(f.tasks.close(f.conversationId, { actor: 'user', owner: 'main', claims: false }, 'edit')).toBe(true);
    expect(f.list()).toBeNull();
    expect(f.tasks.close(f.conversationId, { actor: 'user', owner: 'main', claims: false }, 'edit')).toBe(false);
    const closed = f.db.prepare("SELECT actor, after FROM task_events WHERE kind = 'closed'").all();
    expect(closed).toEqual([{ actor: 'user', after: '{"reason":"edit"}' }]);
  });
});

describe('transactions', () => {
  it('a write failing half-way leaves nothing behind', async () => {
    await manage(plan(['in_progress', 'pending', 'pending']));
    // Make the third insert of the next call fail inside SQLite, after two rows went in.
    f.db.exec(
      `CREATE TRIGGER boom BEFORE INSERT ON tasks WHEN new.title = 'Explode' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;`,
    );
    const before = dumpTaskTables(f.db);
    const result = await manage([
      { id: 1, title: 'Set up project', status: 'completed' },
      { id: 2, title: 'Create data models', status: 'in_progress' },
      { id: 4, title: 'New step', status: 'pending' },
      { id: 5, title: 'Explode', status: 'pending' },
    ]);
    expect(result.content).toMatch(/^Error: The task list could not be saved \(disk on fire\)\. Nothing was changed\./);
    expect(dumpTaskTables(f.db)).toEqual(before);
  });
});
