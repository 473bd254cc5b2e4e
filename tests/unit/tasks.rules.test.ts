import { describe, expect, it } from 'vitest';
import {
  checkChange,
  describeIds,
  findCycle,
  isFinished,
  newlyUnblocked,
  normalizeStatus,
  normalizeTaskId,
  normalizeTitle,
  progressText,
  taskNotFound,
  type RuleTask,
} from '../../src/main/core/tasks/taskRules';

const t = (
  id: number,
  status: RuleTask['status'] = 'pending',
  blockedBy: number[] = [],
  owner = 'main',
  title = `Task ${id}`,
): RuleTask => ({
  id,
  title,
  status,
  owner,
  blockedBy,
});

describe('status words', () => {
  it.each([
    ['not-started', 'pending'],
    ['pending', 'pending'],
    ['in-progress', 'in_progress'],
    ['in_progress', 'in_progress'],
    ['completed', 'completed'],
    ['done', 'completed'],
    ['cancelled', 'cancelled'],
    ['  Done ', 'completed'],
    ['IN-PROGRESS', 'in_progress'],
  ])('%j means %s', (word, status) => {
    expect(normalizeStatus(word)).toEqual({ ok: true, value: status });
  });

  it.each(['started', 'canceled-ish', '', 'deleted', 'in progress'])(
    '%j is rejected with the valid words listed',
    (word) => {
      const result = normalizeStatus(word);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error).toContain(`"${word}"`);
        for (const valid of [
          'not-started',
          'pending',
          'in-progress',
          'in_progress',
          'completed',
          'done',
          'cancelled',
        ]) {
          expect(result.error).toContain(valid);
        }
      }
    },
  );

  it.each([3, null, undefined, {}])('non-text %j is rejected', (word) => {
    expect(normalizeStatus(word)).toMatchObject({ ok: false, error: expect.stringContaining('pending') });
  });
});

describe('titles', () => {
  it.each([
    ['  Write tests  ', { ok: true, value: 'Write tests' }],
    ['x'.repeat(200), { ok: true, value: 'x'.repeat(200) }],
    [`  ${'y'.repeat(200)}  `, { ok: true, value: 'y'.repeat(200) }],
    ['', { ok: false, error: 'title must not be empty' }],
    ['   \n ', { ok: false, error: 'title must not be empty' }],
    ['z'.repeat(201), { ok: false, error: 'title must be at most 200 characters (got 201)' }],
    [42, { ok: false, error: 'title must be text' }],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeTitle(raw)).toEqual(expected);
  });
});

describe('task ids', () => {
  it.each([
    [3, 3],
    ['3', 3],
    ['#12', 12],
    [' 7 ', 7],
  ])('%j is task %i', (raw, id) => {
    expect(normalizeTaskId(raw)).toEqual({ ok: true, value: id });
  });
  it.each([0, -1, 1.5, 'three', '', null, 10_000])('%j is rejected', (raw) => {
    expect(normalizeTaskId(raw).ok).toBe(false);
  });
});

describe('messages naming ids', () => {
  it.each([
    [[1, 2, 3, 4, 5], '1–5'],
    [[5, 1, 3, 2], '1–3, 5'],
    [[1, 2], '1, 2'],
    [[7], '7'],
    [[1, 3, 4, 5, 9, 10], '1, 3–5, 9, 10'],
  ])('%j → %s', (ids, text) => {
    expect(describeIds(ids)).toBe(text);
  });

  it('unknown ids say which ids exist', () => {
    expect(taskNotFound(7, [1, 2, 3, 4, 5])).toBe('Task 7 not found (this list has tasks 1–5)');
    expect(taskNotFound(2, [1])).toBe('Task 2 not found (this list has task 1)');
    expect(taskNotFound(1, [])).toBe('Task 1 not found (there is no open task list; create tasks first)');
  });
});

describe('checkChange', () => {
  const cases: Array<{ name: string; before: RuleTask[]; after: RuleTask[]; errors: RegExp[] }> = [
    { name: 'a plain list is fine', before: [], after: [t(1, 'in_progress'), t(2), t(3)], errors: [] },
    {
      name: 'two in_progress for one owner',
      before: [],
      after: [t(1, 'in_progress'), t(2, 'in_progress')],
      errors: [/Only one task may be in_progress at a time; tasks 1 and 2 are/],
    },
    {
      name: 'one in_progress per owner, owners differ',
      before: [],
      after: [t(1, 'in_progress'), t(2, 'in_progress', [], 'worker-1'), t(3, 'in_progress', [], 'worker-2')],
      errors: [],
    },
    {
      name: 'two in_progress for a worker',
      before: [],
      after: [t(1, 'in_progress', [], 'worker-1'), t(2, 'in_progress', [], 'worker-1')],
      errors: [/at a time for worker-1; tasks 1 and 2/],
    },
    { name: 'duplicate ids', before: [], after: [t(1), t(1)], errors: [/unique.*1 used more than once/] },
    {
      name: 'empty title',
      before: [],
      after: [t(1, 'pending', [], 'main', '  ')],
      errors: [/Task 1: title must not be empty/],
    },
    {
      name: 'blocker outside the list',
      before: [],
      after: [t(1, 'pending', [4])],
      errors: [/Task 1 is blocked by 4, which is not in this list/],
    },
    {
      name: 'self dependency',
      before: [],
      after: [t(1, 'pending', [1])],
      errors: [/Task 1 cannot be blocked by itself/],
    },
    {
      name: 'cycle named',
      before: [],
      after: [t(1, 'pending', [3]), t(2, 'pending', [1]), t(3, 'pending', [2])],
      errors: [/cycle: 1 → 3 → 2 → 1/],
    },
    {
      name: 'starting a blocked task',
      before: [t(1), t(2, 'pending', [1])],
      after: [t(1), t(2, 'in_progress', [1])],
      errors: [/Task 2 cannot be started: it is blocked by 1, which is not completed yet/],
    },
    {
      name: 'completing a task blocked twice names both',
      before: [t(1, 'in_progress'), t(2), t(3, 'pending', [1, 2])],
      after: [t(1, 'in_progress'), t(2), t(3, 'completed', [1, 2])],
      errors: [/Task 3 cannot be completed: it is blocked by 1 and 2, which are not completed yet/],
    },
    {
      name: 'completing the blocker and the dependant together',
      before: [t(1, 'in_progress'), t(2, 'pending', [1])],
      after: [t(1, 'completed'), t(2, 'in_progress', [1])],
      errors: [],
    },
    {
      name: 'a cancelled blocker no longer blocks',
      before: [t(1, 'cancelled'), t(2, 'pending', [1])],
      after: [t(1, 'cancelled'), t(2, 'in_progress', [1])],
      errors: [],
    },
    {
      name: 'adding an open blocker to a task in progress',
      before: [t(1), t(2, 'in_progress')],
      after: [t(1), t(2, 'in_progress', [1])],
      errors: [/Task 2 cannot be started: it is blocked by 1/],
    },
    {
      name: 'unticking a blocker leaves an untouched completed dependant valid',
      before: [t(1, 'completed'), t(2, 'completed', [1])],
      after: [t(1, 'pending'), t(2, 'completed', [1])],
      errors: [],
    },
    {
      name: 'several problems are all reported',
      before: [],
      after: [t(1, 'in_progress'), t(2, 'in_progress', [9])],
      errors: [/blocked by 9/, /Only one task/],
    },
  ];

  it.each(cases)('$name', ({ before, after, errors }) => {
    const found = checkChange(before, after);
    expect(found).toHaveLength(errors.length);
    for (const pattern of errors)
      expect(
        found.some((e) => pattern.test(e)),
        `${pattern} in ${JSON.stringify(found)}`,
      ).toBe(true);
  });

  it('a list of 201 tasks is too long', () => {
    const after = Array.from({ length: 201 }, (_, i) => t(i + 1));
    expect(checkChange([], after)).toEqual(['A list holds at most 200 tasks (got 201).']);
  });
});

describe('dependencies', () => {
  it.each([
    [
      [t(1, 'pending', [2]), t(2, 'pending', [1])],
      [1, 2, 1],
    ],
    [[t(1), t(2, 'pending', [1]), t(3, 'pending', [1, 2])], null],
    [
      [t(1, 'pending', [2]), t(2, 'pending', [3]), t(3, 'pending', [4]), t(4, 'pending', [2])],
      [2, 3, 4, 2],
    ],
  ])('findCycle(%j) = %j', (tasks, cycle) => {
    expect(findCycle(tasks)).toEqual(cycle);
  });

  it('completing a blocker frees its dependants with no extra call', () => {
    const before = [t(1, 'in_progress'), t(2, 'pending', [1]), t(3, 'pending', [1, 2]), t(4, 'pending', [1])];
    const after = [t(1, 'completed'), t(2, 'pending', [1]), t(3, 'pending', [1, 2]), t(4, 'pending', [1])];
    expect(checkChange(before, after)).toEqual([]);
    expect(newlyUnblocked(before, after)).toEqual([2, 4]);
  });
});

describe('progress', () => {
  it.each([
    [[t(1, 'completed'), t(2, 'in_progress'), t(3)], '1/3 completed', false],
    [[t(1, 'completed'), t(2, 'cancelled')], '1/1 completed, 1 cancelled', true],
    [[t(1, 'completed'), t(2, 'completed')], '2/2 completed', true],
    [[], '0/0 completed', false],
  ])('%j → %s (finished: %s)', (tasks, text, finished) => {
    expect(progressText(tasks)).toBe(text);
    expect(isFinished(tasks)).toBe(finished);
  });
});
