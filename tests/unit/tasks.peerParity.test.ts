// The peers' own todo-tool cases (VS Code, Gemini CLI, Codex) that Stepwise once failed:
// long lists get a note, a JSON-string todoList is accepted, unknown keys are named with
// the key that was probably meant, and every error reads as a sentence.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closestKey, explainInvalid, sentence } from '../../src/main/core/tools/argumentErrors';
import { dumpTaskTables, taskFixturePerTest } from '../support/taskFixture';

const items = (n: number, status = 'pending') =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `Step number ${i + 1}`, status }));

const f = taskFixturePerTest();

describe('manage_todo_list peer parity', () => {
  it('notes a list of more than 10 items, and not one of 10', async () => {
    const ten = await f.call('manage_todo_list', { todoList: items(10) });
    expect(ten.content).not.toMatch(/Note: the list has/);
    const eleven = await f.call('manage_todo_list', { todoList: items(11) });
    expect(eleven.ok).toBe(true);
    expect(eleven.content.split('\n')).toContain(
      'Note: the list has 11 items. Lists of more than 10 are hard to follow; group small steps into larger tasks and keep the list focused.',
    );
    expect(f.list()!.tasks).toHaveLength(11);
  });

  it('accepts todoList sent as a JSON string that parses to an array', async () => {
    const result = await f.call('manage_todo_list', { todoList: JSON.stringify(items(3)) });
    expect(result).toEqual({ ok: true, content: 'Task list updated: 0/3 completed' });
    expect(f.list()!.tasks.map((t) => t.title)).toEqual(['Step number 1', 'Step number 2', 'Step number 3']);
  });

  it.each([
    [
      'a JSON string of an object',
      JSON.stringify({ id: 1 }),
      'Invalid arguments for manage_todo_list: todoList must be an array.',
    ],
    [
      'a string that is not JSON',
      '1. plan 2. build',
      'Invalid arguments for manage_todo_list: todoList must be an array.',
    ],
  ])('refuses %s, changing nothing', async (_case, todoList, message) => {
    await f.call('manage_todo_list', { todoList: items(3) });
    const before = dumpTaskTables(f.db);
    expect(await f.call('manage_todo_list', { todoList })).toEqual({ ok: false, content: message, outcome: 'error' });
    expect(dumpTaskTables(f.db)).toEqual(before);
  });

  it("names the peers' key and the one it meant", async () => {
    const result = await f.call('manage_todo_list', { todos: items(3) });
    expect(result).toEqual({
      ok: false,
      content: "Invalid arguments for manage_todo_list: unknown key 'todos'; did you mean 'todoList'?",
      outcome: 'error',
    });
    expect(f.list()).toBeNull();
  });

  it('ignores an extra key when the call is otherwise valid (VS Code sends "operation")', async () => {
    const result = await f.call('manage_todo_list', { operation: 'write', todoList: items(3) });
    expect(result.ok).toBe(true);
  });

  it('an empty todoList with no open list says there is nothing to clear', async () => {
    expect(await f.call('manage_todo_list', { todoList: [] })).toEqual({
      ok: true,
      content: 'There is no open task list; nothing to clear.',
    });
    expect(f.tasksChanged()).toEqual([]);
  });

  it('ends "(got N)" with a full stop', async () => {
    const result = await f.call('manage_todo_list', { todoList: items(250) });
    expect(result.content).toBe('Error: todoList holds at most 200 items (got 250). The task list was not changed.');
  });

  it('says "must be an integer" for a fractional id', async () => {
    const result = await f.call('task_get', { taskId: 1.5 });
    expect(result.content).toBe('Invalid arguments for task_get: taskId must be an integer.');
  });

  it('every error the task tools give ends as a sentence', async () => {
    await f.call('manage_todo_list', { todoList: items(3) });
    const calls: Array<[string, unknown]> = [
      ['manage_todo_list', { todoList: [{ id: 1, title: '', status: 'wip' }] }],
      ['manage_todo_list', { todoList: items(250) }],
      ['manage_todo_list', { todos: [] }],
      ['manage_todo_list', '{"todoList": ['],
      ['task_update', { taskId: 42, status: 'done' }],
      ['task_update', { taskId: 'seven' }],
      ['task_update', { taskId: 2, status: 'in_progress', addBlockedBy: [9] }],
      ['task_get', { taskId: 1.5 }],
      ['task_delete', {}],
      ['task_create', { title: 'x'.repeat(300) }],
    ];
    for (const [name, args] of calls) {
      await f.call('task_update', { taskId: 1, status: 'pending' });
      const result = await f.call(name, args);
      const text = result.content.startsWith('{')
        ? String((JSON.parse(result.content) as { error?: string }).error)
        : result.content;
      expect(text, `${name} ${JSON.stringify(args)}`).toMatch(/[.!?]$/);
      expect(text).not.toMatch(/ a int\b|undefined/);
    }
  });
});

describe('argument error helpers', () => {
  it.each([
    ['todos', ['todoList'], 'todoList'],
    ['task_id', ['taskId', 'status'], 'taskId'],
    ['TaskID', ['taskId'], 'taskId'],
    ['titel', ['title', 'status'], 'title'],
    ['operation', ['todoList'], null],
    ['x', ['taskId'], null],
  ])('closestKey(%s)', (unknown, known, expected) => {
    expect(closestKey(unknown, known)).toBe(expected);
  });

  it('an unknown key without a likely match lists what the tool takes', () => {
    const schema = z.object({ taskId: z.number() });
    const result = schema.safeParse({ banana: 1 });
    expect(explainInvalid(result.error!, { banana: 1 }, z.toJSONSchema(schema) as Record<string, unknown>)).toBe(
      "taskId is required; unknown key 'banana' (this tool takes 'taskId').",
    );
  });

  it('sentence adds a full stop after a closing parenthesis but keeps ? and !', () => {
    expect(sentence('at most 200 (got 250)')).toBe('at most 200 (got 250).');
    expect(sentence('did you mean it?')).toBe('did you mean it?');
    expect(sentence('Done.')).toBe('Done.');
  });
});
