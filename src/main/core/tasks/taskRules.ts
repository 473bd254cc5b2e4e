// The rules every task list obeys, whoever changes it (model, user, worker). Pure: the
// service builds the proposed list in memory, asks `checkChange`, and writes only when
// it returns no errors. Messages are written for a model (or a person) to act on.
import { TASK_TITLE_MAX, type TaskStatus } from '../../../shared/tasks';
import { progressOf } from '../../../shared/taskProgress';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = (error: string): Checked<never> => ({ ok: false, error });

/** Every word the tools accept, and what it means. */
export const STATUS_WORDS: Readonly<Record<string, TaskStatus>> = {
  'not-started': 'pending',
  pending: 'pending',
  'in-progress': 'in_progress',
  in_progress: 'in_progress',
  completed: 'completed',
  done: 'completed',
  cancelled: 'cancelled',
};

export const VALID_STATUS_TEXT = Object.keys(STATUS_WORDS).join(', ');

export function normalizeStatus(word: unknown): Checked<TaskStatus> {
  if (typeof word !== 'string') return fail(`status must be one of: ${VALID_STATUS_TEXT}`);
  const key = word.trim().toLowerCase();
  const status = Object.hasOwn(STATUS_WORDS, key) ? STATUS_WORDS[key] : undefined;
  if (!status) return fail(`Unknown status "${word}". Use one of: ${VALID_STATUS_TEXT}.`);
  return ok(status);
}

export function normalizeTitle(raw: unknown): Checked<string> {
  if (typeof raw !== 'string') return fail('title must be text');
  const title = raw.trim();
  if (!title) return fail('title must not be empty');
  if (title.length > TASK_TITLE_MAX)
    return fail(`title must be at most ${TASK_TITLE_MAX} characters (got ${title.length})`);
  return ok(title);
}

/** Largest id a task may have; keeps model-chosen ids sane. */
export const TASK_ID_MAX = 9999;
/** Most tasks one list may hold. */
export const LIST_TASKS_MAX = 200;

/** Accepts 3, "3" and "#3": models write ids all three ways. */
export function normalizeTaskId(raw: unknown): Checked<number> {
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\s*#?\d+\s*$/.test(raw)
        ? Number(raw.trim().replace('#', ''))
        : NaN;
  if (!Number.isInteger(n) || n < 1 || n > TASK_ID_MAX) {
    return fail(`Task id must be a whole number from 1 to ${TASK_ID_MAX} (got ${JSON.stringify(raw)})`);
  }
  return ok(n);
}

/** `1–3, 5, 7–8`: ids as compact ranges, for messages. */
export function describeIds(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j === i ? String(sorted[i]) : j === i + 1 ? `${sorted[i]}, ${sorted[j]}` : `${sorted[i]}–${sorted[j]}`);
    i = j;
  }
  return parts.join(', ');
}

/** `1, 2 and 3`. */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export function taskNotFound(id: number, existing: readonly number[]): string {
  if (existing.length === 0) return `Task ${id} not found (there is no open task list; create tasks first)`;
  return `Task ${id} not found (this list has ${existing.length === 1 ? 'task' : 'tasks'} ${describeIds(existing)})`;
}

/** The part of a task the rules look at. `blockedBy` holds task ids of the same list. */
export interface RuleTask {
  id: number;
  title: string;
  status: TaskStatus;
  owner: string;
  blockedBy: readonly number[];
}

/** A blocker holds a task back until it is completed; a cancelled blocker no longer does. */
export function isOpen(status: TaskStatus): boolean {
  return status === 'pending' || status === 'in_progress';
}

export function openBlockersOf(task: RuleTask, byId: ReadonlyMap<number, RuleTask>): number[] {
  return task.blockedBy.filter((id) => {
    const blocker = byId.get(id);
    return blocker !== undefined && isOpen(blocker.status);
  });
}

/** A dependency cycle as ids, first id repeated at the end (`1 → 2 → 1`), or null. */
export function findCycle(tasks: readonly RuleTask[]): number[] | null {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<number, 'visiting' | 'done'>();
  const path: number[] = [];
  const visit = (id: number): number[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const next of [...(byId.get(id)?.blockedBy ?? [])].sort((a, b) => a - b)) {
      if (!byId.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const task of [...tasks].sort((a, b) => a.id - b.id)) {
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return null;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length === 0 && b.length === 0) return true;
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}

/**
 * Checks a proposed list against the one it replaces. Returns every problem found
 * (empty: the change may be written). Structural rules hold for the whole list; the
 * blocker rule applies to tasks this change moves to in_progress/completed, or whose
 * dependencies it changes while they are there — so unticking a blocker later does not
 * make an untouched dependant invalid.
 */
export function checkChange(before: readonly RuleTask[], after: readonly RuleTask[]): string[] {
  // Runs on every change of lists of up to 200 tasks: the id index is built only when a
  // task has blockers, and the common case (ids as before, no dependencies) allocates little.
  const errors: string[] = [];
  const ids = new Set<number>();
  const duplicates = new Set<number>();
  let withBlockers = false;
  for (const task of after) {
    if (ids.has(task.id)) duplicates.add(task.id);
    ids.add(task.id);
    if (task.blockedBy.length) withBlockers = true;
  }
  if (duplicates.size)
    errors.push(`Task ids must be unique in a list: ${describeIds([...duplicates])} used more than once.`);
  if (after.length > LIST_TASKS_MAX) errors.push(`A list holds at most ${LIST_TASKS_MAX} tasks (got ${after.length}).`);
  const byId = withBlockers ? new Map(after.map((t) => [t.id, t])) : null;

  let inProgress: Map<string, number[]> | null = null;
  for (const task of after) {
    if (!Number.isInteger(task.id) || task.id < 1 || task.id > TASK_ID_MAX) {
      errors.push(`Task id must be a whole number from 1 to ${TASK_ID_MAX} (got ${task.id}).`);
    }
    if (!isCleanTitle(task.title)) {
      const title = normalizeTitle(task.title);
      if (!title.ok) errors.push(`Task ${task.id}: ${title.error}.`);
    }
    if (task.status === 'in_progress')
      (inProgress ??= new Map()).set(task.owner, [...(inProgress.get(task.owner) ?? []), task.id]);
    if (!byId || task.blockedBy.length === 0) continue;
    if (task.blockedBy.includes(task.id)) errors.push(`Task ${task.id} cannot be blocked by itself.`);
    const missing = task.blockedBy.filter((id) => id !== task.id && !byId.has(id));
    if (missing.length) {
      errors.push(
        `Task ${task.id} is blocked by ${describeIds(missing)}, which ${missing.length === 1 ? 'is' : 'are'} not in this list.`,
      );
    }
  }

  // Most lists have no dependencies at all: then there is no cycle to look for.
  const cycle =
    withBlockers && findCycle(after.map((t) => ({ ...t, blockedBy: t.blockedBy.filter((id) => id !== t.id) })));
  if (cycle) errors.push(`Dependencies would form a cycle: ${cycle.join(' → ')}. Remove one of these dependencies.`);

  for (const [owner, started] of inProgress ?? []) {
    if (started.length > 1) {
      const who = owner === 'main' ? '' : ` for ${owner}`;
      errors.push(
        `Only one task may be in_progress at a time${who}; tasks ${joinAnd(started.map(String))} are. ` +
          'Mark the finished one completed (or pending) first.',
      );
    }
  }

  // Only a task with blockers can be held back by them.
  if (!byId) return errors;
  const previous = new Map(before.map((t) => [t.id, t]));
  for (const task of after) {
    if (task.blockedBy.length === 0 || (task.status !== 'in_progress' && task.status !== 'completed')) continue;
    const old = previous.get(task.id);
    if (old && old.status === task.status && sameIds(old.blockedBy, task.blockedBy)) continue;
    const open = openBlockersOf(task, byId);
    if (open.length) {
      const word = task.status === 'completed' ? 'completed' : 'started';
      errors.push(
        `Task ${task.id} cannot be ${word}: it is blocked by ${joinAnd(open.map(String))}, ` +
          `which ${open.length === 1 ? 'is' : 'are'} not completed yet. Finish ${open.length === 1 ? 'it' : 'them'} first or remove the dependency.`,
      );
    }
  }
  return errors;
}

/** Printable ASCII: never trimmed. */
const solid = (code: number) => code > 32 && code < 127;

/** A title normalizeTitle takes as it is, told without trimming it (the usual case); anything else goes to normalizeTitle. */
export function isCleanTitle(title: unknown): title is string {
  return (
    typeof title === 'string' &&
    title.length > 0 &&
    title.length <= TASK_TITLE_MAX &&
    solid(title.charCodeAt(0)) &&
    solid(title.charCodeAt(title.length - 1))
  );
}

/** Tasks that had an open blocker before the change and have none after it. */
export function newlyUnblocked(before: readonly RuleTask[], after: readonly RuleTask[]): number[] {
  if (!before.some((t) => t.blockedBy.length > 0)) return [];
  const oldById = new Map(before.map((t) => [t.id, t]));
  const newById = new Map(after.map((t) => [t.id, t]));
  return after
    .filter((t) => {
      const old = oldById.get(t.id);
      return (
        old && openBlockersOf(old, oldById).length > 0 && openBlockersOf(t, newById).length === 0 && isOpen(t.status)
      );
    })
    .map((t) => t.id);
}

/** "k/N completed", cancelled tasks counted apart (they do not count towards N). */
export function progressText(tasks: readonly { status: TaskStatus }[]): string {
  const { done, total, cancelled } = progressOf(tasks);
  return `${done}/${total} completed${cancelled ? `, ${cancelled} cancelled` : ''}`;
}

/** Every task is completed or cancelled (and there is at least one). */
export function isFinished(tasks: readonly { status: TaskStatus }[]): boolean {
  return tasks.length > 0 && tasks.every((t) => !isOpen(t.status));
}
