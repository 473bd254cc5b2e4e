// Whatever else writes the database (an outer transaction that rolls back, a message
// deletion's SET NULL, another connection), what the task service returns and pushes must
// equal a fresh read: it holds no rows of its own between changes (docs/performance.md).
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/main/core/ipc/eventBus';
import { DB_FILE } from '../../src/main/core/db/databaseFile';
import { fullListOp } from '../../src/main/core/tasks/taskOps';
import { agentWho } from '../../src/main/core/tasks/taskService';
import { taskFixturePerTest } from '../support/taskFixture';

const f = taskFixturePerTest();
const who = agentWho('main');
const plan = (done: number) =>
  ['Read the code', 'Write the fix', 'Run the tests'].map((title, i) => ({
    id: i + 1,
    title,
    status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
  }));

beforeEach(async () => {
  f.say('user');
  f.say('assistant');
  expect((await f.call('manage_todo_list', { todoList: plan(0) })).ok).toBe(true);
});

const fresh = () => f.tasks.store.openTaskList(f.conversationId);
const lastPushed = () => f.tasksChanged().at(-1)?.list;

describe('task rows written elsewhere', () => {
  it('a change inside an outer transaction that rolls back leaves nothing behind', async () => {
    const before = fresh();
    expect(() =>
      f.db.transaction(() => {
        expect(f.tasks.change(f.conversationId, who, fullListOp(plan(1), who)).ok).toBe(true);
        throw new Error('the outer work failed');
      })(),
    ).toThrow('the outer work failed');
    expect(fresh()).toEqual(before);
    expect(f.tasks.get(f.conversationId)).toEqual(before);
    expect((await f.call('manage_todo_list', { todoList: plan(2) })).ok).toBe(true);
    expect(lastPushed()).toEqual(fresh());
  });

  it('notices a message deleted under its tasks and a commit by another connection', async () => {
    expect((await f.call('manage_todo_list', { todoList: plan(1) })).ok).toBe(true);
    f.db.prepare('DELETE FROM messages WHERE role = ?').run('assistant');
    expect(f.tasks.get(f.conversationId)).toEqual(fresh());
    expect(fresh()!.tasks.every((t) => t.lastMessageId === null || t.lastMessageId < 2)).toBe(true);

    const other = new Database(path.join(f.dir, DB_FILE));
    try {
      other.prepare("UPDATE tasks SET title = 'Renamed by another program' WHERE seq = 3").run();
    } finally {
      other.close();
    }
    expect(f.tasks.get(f.conversationId)!.tasks[2].title).toBe('Renamed by another program');
    expect((await f.call('manage_todo_list', { todoList: plan(2) })).ok).toBe(true);
    expect(lastPushed()).toEqual(fresh());
  });
});

describe('event bus check', () => {
  it('when checking, refuses a payload the contract would change; unchecked, passes it as is', () => {
    const extra = { command: 'new-conversation', secret: 'x' } as never;
    expect(() => createEventBus({ check: true }).emit('app:command', extra)).toThrow(/outside its schema/);
    const unchecked = createEventBus({ check: false });
    const got: unknown[] = [];
    unchecked.subscribe((_event, payload) => got.push(payload));
    unchecked.emit('app:command', { command: 'new-conversation' });
    expect(got).toEqual([{ command: 'new-conversation' }]);
  });
});
