// A pushed task list arrives as new objects from JSON, though a change touches a few
// tasks. Keeping the previous object of each task whose value did not change lets the
// header's memoized rows skip it: a 64-task list then renders two rows per change, not 64.
import type { Task, TaskList } from '../../shared/tasks';

/** Equal as JSON values (what the contract carries): primitives, arrays, plain objects. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  // Plain loops: this runs for every task of every push.
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (!Object.hasOwn(right, key) || !sameValue(left[key], right[key])) return false;
    keys++;
  }
  for (const _key in right) keys--;
  return keys === 0;
}

/**
 * `next` with every task equal to its version in `previous` (same list, same id) replaced by
 * that previous object. When nothing changed at all, `previous` itself.
 */
export function withUnchangedTasks(previous: TaskList | null, next: TaskList): TaskList {
  if (!previous || previous.id !== next.id) return next;
  const before = previous.tasks;
  let byId: Map<number, Task> | null = null;
  let reused = 0;
  const tasks = next.tasks.map((task, i) => {
    // Lists are re-sent in their order: look at the same place before building a map.
    let old: Task | undefined = before[i]?.id === task.id ? before[i] : undefined;
    if (!old) {
      byId ??= new Map(before.map((t) => [t.id, t]));
      old = byId.get(task.id);
    }
    if (old && sameValue(old, task)) {
      reused++;
      return old;
    }
    return task;
  });
  const unchanged =
    reused === before.length && tasks.length === before.length && tasks.every((task, i) => task === before[i]);
  return unchanged && sameApartFromTasks(previous, next) ? previous : { ...next, tasks };
}

function sameApartFromTasks(a: TaskList, b: TaskList): boolean {
  const keys = Object.keys(a) as (keyof TaskList)[];
  return keys.length === Object.keys(b).length && keys.every((key) => key === 'tasks' || sameValue(a[key], b[key]));
}
