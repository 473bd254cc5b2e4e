// "User edits win until the model has acknowledged them": the pure merge rule, table by
// table, a fast-check property (an edit the model was not told about never disappears),
// and the rule through the real tools and SQLite.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../src/shared/tasks';
import {
  describeKept,
  holds,
  mergeModelChange,
  recordUserEdits,
  type UserEdit,
} from '../../src/main/core/tasks/taskMerge';
import { deleteOp, reorderOp, userAddOp, userUpdateOp } from '../../src/main/core/tasks/taskOps';
import { USER } from '../../src/main/core/tasks/taskService';
import { taskFixturePerTest } from '../support/taskFixture';

interface T {
  id: number;
  title: string;
  status: TaskStatus;
  blockedBy: number[];
}
const t = (id: number, status: TaskStatus = 'pending', title = `Task ${id}`): T => ({
  id,
  title,
  status,
  blockedBy: [],
});
const five = () => [t(1, 'completed'), t(2, 'in_progress'), t(3), t(4), t(5)];
const view = (tasks: readonly T[]) => tasks.map((x) => `${x.id}:${x.status}:${x.title}`);

describe('recordUserEdits', () => {
  it.each<[string, T[], UserEdit[]]>([
    [
      'a tick',
      [t(1, 'completed'), t(2, 'in_progress'), t(3, 'completed'), t(4), t(5)],
      [{ kind: 'status', id: 3, status: 'completed', told: false }],
    ],
    [
      'a rename',
      [t(1, 'completed'), t(2, 'in_progress'), t(3), t(4, 'pending', 'Renamed'), t(5)],
      [{ kind: 'title', id: 4, title: 'Renamed', told: false }],
    ],
    [
      'an add',
      [...five(), t(6, 'pending', 'Write changelog')],
      [{ kind: 'added', id: 6, title: 'Write changelog', told: false }],
    ],
    [
      'a delete',
      [t(1, 'completed'), t(2, 'in_progress'), t(3), t(4)],
      [{ kind: 'deleted', id: 5, title: 'Task 5', told: false }],
    ],
    [
      'a reorder',
      [t(2, 'in_progress'), t(1, 'completed'), t(3), t(4), t(5)],
      [{ kind: 'order', order: [2, 1, 3, 4, 5], told: false }],
    ],
  ])('records %s', (_case, after, expected) => {
    expect(recordUserEdits([], five(), after)).toEqual(expected);
  });

  it('nets out: a later edit of the same field replaces the earlier one; add then delete leaves nothing', () => {
    const ticked = recordUserEdits([], five(), [t(1, 'completed'), t(2, 'in_progress'), t(3, 'completed'), t(4), t(5)]);
    const unticked = recordUserEdits(
      ticked,
      [t(1, 'completed'), t(2, 'in_progress'), t(3, 'completed'), t(4), t(5)],
      five(),
    );
    expect(unticked).toEqual([{ kind: 'status', id: 3, status: 'pending', told: false }]);
    const added = recordUserEdits([], five(), [...five(), t(6)]);
    expect(recordUserEdits(added, [...five(), t(6)], five())).toEqual([]);
    const renamedAdd = recordUserEdits(added, [...five(), t(6)], [...five(), t(6, 'pending', 'Better')]);
    expect(renamedAdd).toEqual([{ kind: 'added', id: 6, title: 'Better', told: false }]);
  });
});

describe('mergeModelChange', () => {
  const userList = [
    t(1, 'completed'),
    t(2, 'in_progress'),
    t(3, 'completed'),
    t(4, 'pending', 'Renamed'),
    t(5),
    t(6, 'pending', 'Write changelog'),
  ];
  const edits: UserEdit[] = [
    { kind: 'status', id: 3, status: 'completed', told: false },
    { kind: 'title', id: 4, title: 'Renamed', told: false },
    { kind: 'added', id: 6, title: 'Write changelog', told: false },
  ];

  it("keeps the user's tick, rename and add against a rewrite that omits them, and applies the rest", () => {
    const rewrite = [t(1, 'completed'), t(2, 'completed'), t(3, 'in_progress'), t(4), t(5)];
    const merged = mergeModelChange(userList, rewrite, edits, { complete: true });
    expect(view(merged.tasks)).toEqual([
      '1:completed:Task 1',
      '2:completed:Task 2',
      '3:completed:Task 3',
      '4:pending:Renamed',
      '5:pending:Task 5',
      '6:pending:Write changelog',
    ]);
    expect(merged.edits.every((e) => e.told)).toBe(true);
    expect(describeKept(merged.kept)).toBe(
      "Kept the user's changes: task 3 stays completed; task 4 keeps the title 'Renamed'; task 6 'Write changelog' stays in the list. Send them again if you really mean to change them.",
    );
    // Repeated after being told: the model's version wins, and nothing is protected any more.
    const again = mergeModelChange(merged.tasks, rewrite, merged.edits, { complete: true });
    expect(view(again.tasks)).toEqual(view(rewrite));
    expect(again.kept).toEqual([]);
    expect(again.edits).toEqual([]);
  });

  it('a list that agrees acknowledges the edits: nothing kept, nothing left to protect', () => {
    const agreeing = userList.map((x) => (x.id === 5 ? { ...x, status: 'completed' as const } : x));
    const merged = mergeModelChange(userList, agreeing, edits, { complete: true });
    expect(merged).toEqual({ tasks: agreeing, kept: [], edits: [] });
  });

  it.each<[string, UserEdit, T[], T[], string[], string]>([
    [
      'a delete the model re-adds',
      { kind: 'deleted', id: 5, title: 'Task 5', told: false },
      five().slice(0, 4),
      five(),
      ['1:completed:Task 1', '2:in_progress:Task 2', '3:pending:Task 3', '4:pending:Task 4'],
      "task 5 'Task 5' stays deleted",
    ],
    [
      'an untick the model re-ticks',
      { kind: 'status', id: 1, status: 'pending', told: false },
      [t(1), ...five().slice(1)],
      five(),
      view([t(1), ...five().slice(1)]),
      'task 1 stays pending',
    ],
    [
      'a reorder the model undoes',
      { kind: 'order', order: [3, 1, 2, 4, 5], told: false },
      [t(3), t(1, 'completed'), t(2, 'in_progress'), t(4), t(5)],
      five(),
      view([t(3), t(1, 'completed'), t(2, 'in_progress'), t(4), t(5)]),
      "the tasks stay in the user's order",
    ],
  ])('keeps %s', (_case, edit, current, rewrite, expected, kept) => {
    const merged = mergeModelChange(current, rewrite, [edit], { complete: true });
    expect(view(merged.tasks)).toEqual(expected);
    expect(describeKept(merged.kept)).toBe(
      `Kept the user's changes: ${kept}. Send it again if you really mean to change it.`,
    );
  });

  it('a new task that reuses a deleted id under another title is a different task', () => {
    const merged = mergeModelChange(
      five().slice(0, 4),
      [...five().slice(0, 4), t(5, 'pending', 'Deploy')],
      [{ kind: 'deleted', id: 5, title: 'Task 5', told: false }],
      { complete: true },
    );
    expect(merged.tasks.at(-1)?.title).toBe('Deploy');
    expect(merged.kept).toEqual([]);
  });

  it('a granular call that does not touch an edit leaves it protected', () => {
    const current = [t(1, 'completed'), t(2, 'in_progress'), t(3, 'completed'), t(4), t(5)];
    const edit: UserEdit = { kind: 'status', id: 3, status: 'completed', told: false };
    const proposed = current.map((x) => (x.id === 4 ? { ...x, title: 'Other' } : x));
    expect(mergeModelChange(current, proposed, [edit], { complete: false }).edits).toEqual([edit]);
    expect(mergeModelChange(current, proposed, [edit], { complete: true }).edits).toEqual([]);
  });

  it('an edit someone else has since changed is no longer protected', () => {
    const edit: UserEdit = { kind: 'status', id: 3, status: 'pending', told: false };
    const current = [t(1, 'completed'), t(2, 'completed'), t(3, 'completed')];
    expect(holds(edit, current)).toBe(false);
    const merged = mergeModelChange(current, [t(1, 'completed'), t(2, 'completed')], [edit], { complete: true });
    expect(merged.tasks.map((x) => x.id)).toEqual([1, 2]);
  });
});

// ---- The property -------------------------------------------------------------------

type UserOp =
  | { kind: 'status'; pick: number; status: TaskStatus }
  | { kind: 'title'; pick: number; title: string }
  | { kind: 'add'; title: string }
  | { kind: 'delete'; pick: number }
  | { kind: 'reorder'; seed: number };
const statusArb = fc.constantFrom<TaskStatus>('pending', 'in_progress', 'completed', 'cancelled');
const titleArb = fc.constantFrom('Plan', 'Build', 'Test', 'Ship', 'Write changelog', 'Review');
const userOpArb: fc.Arbitrary<UserOp> = fc.oneof(
  fc.record({ kind: fc.constant('status' as const), pick: fc.nat(), status: statusArb }),
  fc.record({ kind: fc.constant('title' as const), pick: fc.nat(), title: titleArb }),
  fc.record({ kind: fc.constant('add' as const), title: titleArb }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('reorder' as const), seed: fc.nat() }),
);

function applyUser(tasks: T[], op: UserOp): T[] {
  if (op.kind === 'add') return [...tasks, t(Math.max(0, ...tasks.map((x) => x.id)) + 1, 'pending', op.title)];
  if (!tasks.length) return tasks;
  if (op.kind === 'reorder') {
    const order = [...tasks];
    const [moved] = order.splice(op.seed % order.length, 1);
    order.splice((op.seed >> 3) % (order.length + 1), 0, moved);
    return order;
  }
  const target = tasks[op.pick % tasks.length];
  if (op.kind === 'delete') return tasks.filter((x) => x !== target);
  return tasks.map((x) => (x === target ? { ...x, [op.kind]: op.kind === 'status' ? op.status : op.title } : x));
}

/** A model rewrite: any subset of the tasks, fields changed at random, new tasks, any order. */
const rewriteArb = (base: T[]) =>
  fc
    .record({
      keep: fc.array(fc.boolean(), { minLength: base.length, maxLength: base.length }),
      statuses: fc.array(fc.option(statusArb, { nil: undefined }), { minLength: base.length, maxLength: base.length }),
      titles: fc.array(fc.option(titleArb, { nil: undefined }), { minLength: base.length, maxLength: base.length }),
      extra: fc.array(fc.record({ id: fc.integer({ min: 1, max: 12 }), title: titleArb, status: statusArb }), {
        maxLength: 3,
      }),
      shuffle: fc.array(fc.nat(), { maxLength: 8 }),
    })
    .map(({ keep, statuses, titles, extra, shuffle }) => {
      const kept = base
        .filter((_, i) => keep[i])
        .map((x) => ({
          ...x,
          status: statuses[base.indexOf(x)] ?? x.status,
          title: titles[base.indexOf(x)] ?? x.title,
        }));
      const ids = new Set(kept.map((x) => x.id));
      const added = extra.filter((x) => !ids.has(x.id) && (ids.add(x.id), true)).map((x) => t(x.id, x.status, x.title));
      const out = [...kept, ...added];
      for (const n of shuffle) if (out.length > 1) out.push(...out.splice(n % out.length, 1));
      return out;
    });

describe('the merge rule, as a property', () => {
  it('a user edit the model was not told about never disappears', () => {
    const scenario = fc
      .record({
        start: fc.array(fc.tuple(titleArb, statusArb), { minLength: 1, maxLength: 6 }),
        ops: fc.array(userOpArb, { minLength: 1, maxLength: 6 }),
      })
      .chain(({ start, ops }) => {
        const initial = start.map(([title, status], i) => t(i + 1, status, title));
        let tasks = initial;
        let edits: UserEdit[] = [];
        for (const op of ops) {
          const next = applyUser(tasks, op);
          edits = recordUserEdits(edits, tasks, next);
          tasks = next;
        }
        return fc.tuple(fc.constant({ tasks, edits }), fc.array(rewriteArb(tasks), { minLength: 1, maxLength: 3 }));
      });
    fc.assert(
      fc.property(scenario, ([{ tasks, edits }, rewrites]) => {
        let current = tasks;
        let protectedEdits = edits;
        for (const rewrite of rewrites) {
          const untold = protectedEdits.filter((e) => !e.told && holds(e, current));
          const merged = mergeModelChange(current, rewrite, protectedEdits, { complete: true });
          for (const edit of untold)
            expect(holds(edit, merged.tasks), JSON.stringify({ edit, rewrite, result: merged.tasks })).toBe(true);
          for (const edit of merged.kept) expect(merged.edits).toContainEqual({ ...edit, told: true });
          current = merged.tasks;
          protectedEdits = merged.edits;
        }
      }),
      { numRuns: 500 },
    );
  });
});

// ---- Through the tools and SQLite ---------------------------------------------------------

const f = taskFixturePerTest();

const plan = (statuses: string[]) => statuses.map((status, i) => ({ id: i + 1, title: `Step ${i + 1}`, status }));
const user = <V>(op: Parameters<typeof f.tasks.change<V>>[2]) => {
  const result = f.tasks.change(f.conversationId, USER, op);
  expect(result.ok).toBe(true);
};

describe('user edits win, through the tools', () => {
  it('manage_todo_list: the issue example, then an override after the result told the model', async () => {
    await f.call('manage_todo_list', { todoList: plan(['completed', 'in_progress', 'pending', 'pending', 'pending']) });
    user(userUpdateOp(3, { status: 'completed' }));
    user(userUpdateOp(4, { title: 'Write the docs' }));
    user(userAddOp('Write changelog', USER));
    const rewrite = plan(['completed', 'completed', 'in_progress', 'pending', 'pending']);
    const result = await f.call('manage_todo_list', { todoList: rewrite });
    expect(result.content.split('\n').slice(0, 2)).toEqual([
      'Task list updated: 3/6 completed',
      "Kept the user's changes: task 3 stays completed; task 4 keeps the title 'Write the docs'; task 6 'Write changelog' stays in the list. Send them again if you really mean to change them.",
    ]);
    expect(result.content).not.toMatch(/missing from this call/);
    expect(f.list()!.tasks.map((x) => [x.id, x.status, x.title])).toEqual([
      [1, 'completed', 'Step 1'],
      [2, 'completed', 'Step 2'],
      [3, 'completed', 'Step 3'],
      [4, 'pending', 'Write the docs'],
      [5, 'pending', 'Step 5'],
      [6, 'pending', 'Write changelog'],
    ]);
    // Told: the same rewrite again is the model's deliberate choice.
    const again = await f.call('manage_todo_list', {
      todoList: rewrite.map((x) => (x.id === 3 ? { ...x, status: 'in_progress' } : x)),
    });
    expect(again.content).not.toMatch(/Kept the user's changes/);
    expect(f.list()!.tasks.map((x) => [x.id, x.status, x.title])).toEqual([
      [1, 'completed', 'Step 1'],
      [2, 'completed', 'Step 2'],
      [3, 'in_progress', 'Step 3'],
      [4, 'pending', 'Step 4'],
      [5, 'pending', 'Step 5'],
    ]);
  });

  it('granular tools follow the same rule: update and delete keep the user version once', async () => {
    await f.call('manage_todo_list', { todoList: plan(['in_progress', 'pending', 'pending']) });
    user(userUpdateOp(2, { status: 'cancelled' }));
    user(userAddOp('Extra step', USER));
    user(reorderOp([1, 3, 2, 4]));
    const update = await f.callJson('task_update', { taskId: 2, status: 'pending', title: 'Step two' });
    expect(update).toMatchObject({
      ok: true,
      task: { id: 2, status: 'cancelled', title: 'Step two' },
      kept: "Kept the user's changes: task 2 stays cancelled. Send it again if you really mean to change it.",
    });
    const removal = await f.callJson('task_delete', { taskId: 4 });
    expect(removal).toMatchObject({
      ok: true,
      deleted: null,
      kept: "Kept the user's changes: task 4 'Extra step' stays in the list. Send it again if you really mean to change it.",
    });
    expect(f.list()!.tasks.map((x) => x.id)).toEqual([1, 3, 2, 4]);
    expect(await f.callJson('task_delete', { taskId: 4 })).toMatchObject({
      ok: true,
      deleted: { id: 4, title: 'Extra step' },
    });
    user(deleteOp(3));
    const readd = await f.call('manage_todo_list', { todoList: plan(['in_progress', 'cancelled', 'pending']) });
    expect(readd.content).toContain("task 3 'Step 3' stays deleted");
    expect(f.list()!.tasks.map((x) => x.id)).toEqual([1, 2]);
  });

  it('edits are stored with the list, so they survive a restart', async () => {
    await f.call('manage_todo_list', { todoList: plan(['in_progress', 'pending', 'pending']) });
    user(userUpdateOp(3, { status: 'completed' }));
    const stored = f.db.prepare('SELECT edits FROM task_user_edits').all() as Array<{ edits: string }>;
    expect(stored.map((r) => JSON.parse(r.edits))).toEqual([
      [{ kind: 'status', id: 3, status: 'completed', told: false }],
    ]);
  });
});
