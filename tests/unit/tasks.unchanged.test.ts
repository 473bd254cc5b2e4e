// A pushed task list keeps the previous object of every task that did not change, so the
// header's memoized rows render only the changed ones (bench: npm run bench -- taskDom).
import { describe, expect, it } from 'vitest';
import type { Task, TaskList } from '../../src/shared/tasks';
import { sameValue, withUnchangedTasks } from '../../src/renderer/tasks/unchangedTasks';

const task = (id: number, fields: Partial<Task> = {}): Task => ({
  id,
  title: `Step ${id}`,
  description: '',
  activeForm: '',
  status: 'pending',
  owner: 'main',
  position: id,
  blockedBy: [],
  openBlockers: [],
  createdAt: 1,
  updatedAt: 1,
  completedAt: null,
  lastMessageId: null,
  handedBack: null,
  changedBy: null,
  ...fields,
});
const list = (tasks: Task[], fields: Partial<TaskList> = {}): TaskList => ({
  id: 7,
  conversationId: 'c1',
  createdAt: 1,
  closedAt: null,
  tasks,
  ...fields,
});
/** The list as it arrives over the wire: every object new. */
const pushed = (value: TaskList): TaskList => JSON.parse(JSON.stringify(value)) as TaskList;

describe('withUnchangedTasks', () => {
  const before = list([task(1, { status: 'in_progress' }), task(2), task(3, { blockedBy: [1], openBlockers: [1] })]);

  it('keeps the objects of unchanged tasks and takes the changed ones', () => {
    const next = pushed(before);
    next.tasks[0] = { ...next.tasks[0], status: 'completed', completedAt: 5 };
    next.tasks[1] = { ...next.tasks[1], status: 'in_progress' };
    const merged = withUnchangedTasks(before, next);
    expect(merged).toEqual(next);
    expect(merged.tasks[0]).toBe(next.tasks[0]);
    expect(merged.tasks[1]).toBe(next.tasks[1]);
    expect(merged.tasks[2]).toBe(before.tasks[2]);
  });

  it('sees a change inside an array field', () => {
    const next = pushed(before);
    next.tasks[2].openBlockers = [];
    const merged = withUnchangedTasks(before, next);
    expect(merged.tasks[2]).toBe(next.tasks[2]);
    expect(merged.tasks[2].openBlockers).toEqual([]);
  });

  it('finds tasks by id when the order changed, and gives the new order', () => {
    const next = pushed(before);
    next.tasks.reverse();
    const merged = withUnchangedTasks(before, next);
    expect(merged.tasks.map((t) => t.id)).toEqual([3, 2, 1]);
    expect(merged.tasks[0]).toBe(before.tasks[2]);
    expect(merged).not.toBe(before);
  });

  it('returns the previous list when nothing changed', () => {
    expect(withUnchangedTasks(before, pushed(before))).toBe(before);
  });

  it('takes a field of the list itself that changed', () => {
    const next = pushed(before);
    next.closedAt = 9;
    const merged = withUnchangedTasks(before, next);
    expect(merged.closedAt).toBe(9);
    expect(merged.tasks[1]).toBe(before.tasks[1]);
  });

  it('reuses nothing across lists or without a previous one', () => {
    const other = pushed(before);
    other.id = 8;
    expect(withUnchangedTasks(before, other)).toBe(other);
    const first = pushed(before);
    expect(withUnchangedTasks(null, first)).toBe(first);
  });

  it('handles added and removed tasks', () => {
    const next = pushed(before);
    next.tasks.splice(1, 1);
    next.tasks.push(task(4));
    const merged = withUnchangedTasks(before, next);
    expect(merged.tasks.map((t) => t.id)).toEqual([1, 3, 4]);
    expect(merged.tasks[0]).toBe(before.tasks[0]);
    expect(merged.tasks[1]).toBe(before.tasks[2]);
    expect(merged.tasks[2]).toBe(next.tasks[2]);
  });
});

describe('sameValue', () => {
  it('compares JSON values deeply', () => {
    expect(sameValue({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(sameValue({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameValue({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameValue([], {})).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue('1', 1)).toBe(false);
  });
});
