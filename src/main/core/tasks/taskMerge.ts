// User edits win until the model has acknowledged them (docs/task-lists.md, "User edits
// win"). Pure: the service records the user's edits after each of their changes, and
// merges every model change against the edits that are still protected.
//
// An edit is protected until the model sends a list that agrees with it. A model change
// that contradicts or omits it keeps the user's version (the rest of the change applies),
// and the tool result says so; that marks the edit `told`. A later change that
// contradicts a told edit wins: the model has repeated it knowingly.
import { z } from 'zod';
import { TaskStatus } from '../../../shared/tasks';
import type { DraftTask } from './taskTypes';

export const UserEdit = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('status'), id: z.number().int(), status: TaskStatus, told: z.boolean() }),
  z.object({ kind: z.literal('title'), id: z.number().int(), title: z.string(), told: z.boolean() }),
  z.object({ kind: z.literal('added'), id: z.number().int(), title: z.string(), told: z.boolean() }),
  z.object({ kind: z.literal('deleted'), id: z.number().int(), title: z.string(), told: z.boolean() }),
  z.object({ kind: z.literal('order'), order: z.array(z.number().int()), told: z.boolean() }),
]);
export type UserEdit = z.infer<typeof UserEdit>;

/** Stored edits; anything unreadable counts as none (an edit is a courtesy, not data). */
export function parseEdits(text: string | null): UserEdit[] {
  if (!text) return [];
  try {
    const parsed = z.array(UserEdit).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The part of a task the merge looks at. */
type Mergeable = Pick<DraftTask, 'id' | 'title' | 'status' | 'blockedBy'>;

const sameTitle = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const onTask = (edit: UserEdit, id: number) => edit.kind !== 'order' && edit.id === id;

/** `order` restricted to the ids in `ids`, in `order`'s sequence. */
function restrict(order: readonly number[], ids: ReadonlySet<number>): number[] {
  return order.filter((id) => ids.has(id));
}

function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** The edits after a change the user made (`before` → `after`): their net effect per task. */
export function recordUserEdits(
  edits: readonly UserEdit[],
  before: readonly Mergeable[],
  after: readonly Mergeable[],
): UserEdit[] {
  let next = [...edits];
  const oldById = new Map(before.map((t) => [t.id, t]));
  const newById = new Map(after.map((t) => [t.id, t]));
  const replace = (edit: UserEdit) => {
    next = next.filter(
      (e) => !(e.kind === edit.kind && (e.kind === 'order' || (edit.kind !== 'order' && e.id === edit.id))),
    );
    next.push(edit);
  };
  for (const old of before) {
    if (newById.has(old.id)) continue;
    const wasAdded = next.some((e) => e.kind === 'added' && e.id === old.id);
    next = next.filter((e) => !onTask(e, old.id));
    if (!wasAdded) next.push({ kind: 'deleted', id: old.id, title: old.title, told: false });
  }
  for (const task of after) {
    const old = oldById.get(task.id);
    if (!old) {
      next = next.filter((e) => !onTask(e, task.id));
      next.push({ kind: 'added', id: task.id, title: task.title, told: false });
      continue;
    }
    if (old.status !== task.status) replace({ kind: 'status', id: task.id, status: task.status, told: false });
    if (old.title !== task.title) {
      const added = next.find((e): e is Extract<UserEdit, { kind: 'added' }> => e.kind === 'added' && e.id === task.id);
      replace(
        added
          ? { ...added, title: task.title, told: false }
          : { kind: 'title', id: task.id, title: task.title, told: false },
      );
    }
  }
  const survivors = new Set(before.filter((t) => newById.has(t.id)).map((t) => t.id));
  const oldOrder = restrict(
    before.map((t) => t.id),
    survivors,
  );
  const newOrder = restrict(
    after.map((t) => t.id),
    survivors,
  );
  if (!sameOrder(oldOrder, newOrder)) replace({ kind: 'order', order: after.map((t) => t.id), told: false });
  return next;
}

/** Whether the list still shows the edit (someone else may have changed it since). */
export function holds(edit: UserEdit, tasks: readonly Mergeable[]): boolean {
  if (edit.kind === 'order') {
    const ids = new Set(tasks.map((t) => t.id));
    const mine = restrict(edit.order, ids);
    return (
      mine.length < 2 ||
      sameOrder(
        mine,
        restrict(
          tasks.map((t) => t.id),
          new Set(mine),
        ),
      )
    );
  }
  const task = tasks.find((t) => t.id === edit.id);
  switch (edit.kind) {
    case 'status':
      return task?.status === edit.status;
    case 'title':
      return task?.title === edit.title;
    case 'added':
      return task !== undefined;
    case 'deleted':
      return !task || !sameTitle(task.title, edit.title);
  }
}

export interface Merged<T extends Mergeable> {
  tasks: T[];
  /** Edits whose version was kept over the model's: the tool result names them. */
  kept: UserEdit[];
  /** The edits still protected after this change. */
  edits: UserEdit[];
}

/**
 * Merges a model change (`current` → `proposed`) with the user's protected edits.
 * `complete`: the change sent the whole list (manage_todo_list), so a task or field it
 * leaves as it was agrees with the user; a granular call addresses only what it changes.
 */
export function mergeModelChange<T extends Mergeable>(
  current: readonly T[],
  proposed: readonly T[],
  edits: readonly UserEdit[],
  options: { complete: boolean },
): Merged<T> {
  const live = edits.filter((e) => holds(e, current));
  const currentById = new Map(current.map((t) => [t.id, t]));
  let tasks = [...proposed];
  const kept: UserEdit[] = [];
  const remaining: UserEdit[] = [];
  const keep = (edit: UserEdit) => {
    kept.push(edit);
    remaining.push({ ...edit, told: true });
  };

  // Tasks the user touched that the change dropped come back, unless every edit on them was told.
  const restore = new Set<number>();
  for (const edit of live) {
    if (edit.kind === 'order' || edit.kind === 'deleted' || edit.told) continue;
    if (!tasks.some((t) => t.id === edit.id) && currentById.has(edit.id)) restore.add(edit.id);
  }
  for (const id of restore) tasks = reinsert(tasks, current, currentById.get(id)!);

  for (const edit of live) {
    if (edit.kind === 'order') continue;
    const index = tasks.findIndex((t) => t.id === edit.id);
    const task = index >= 0 ? tasks[index] : undefined;
    const before = currentById.get(edit.id);
    if (edit.kind === 'deleted') {
      if (!task || !sameTitle(task.title, edit.title)) continue; // agrees: gone (or a different task took the id)
      // Only a whole list can bring a deleted task back unawares; task_create is a deliberate new task.
      if (edit.told || !options.complete) continue;
      tasks = tasks.filter((t) => t.id !== edit.id).map((t) => withoutBlocker(t, edit.id));
      keep(edit);
      continue;
    }
    if (!task) continue; // removed knowingly (told, not restored)
    if (restore.has(edit.id)) {
      keep(edit);
      continue;
    }
    const field = edit.kind === 'status' ? 'status' : 'title';
    const wanted = edit.kind === 'status' ? edit.status : edit.title;
    const untouched = before !== undefined && task[field] === before[field];
    if (task[field] === wanted) {
      // The same value: agreement when the model sent the whole list, silence otherwise.
      if (!options.complete && untouched) remaining.push(edit);
      continue;
    }
    if (edit.told) continue; // repeated after being told: the model's version wins
    tasks[index] = { ...task, [field]: wanted };
    keep(edit);
  }

  const currentIds = current.map((t) => t.id);
  const proposedIds = proposed.map((t) => t.id);
  const reordered = !sameOrder(restrict(currentIds, new Set(proposedIds)), restrict(proposedIds, new Set(currentIds)));
  for (const edit of live) {
    if (edit.kind !== 'order') continue;
    const ids = new Set(tasks.map((t) => t.id));
    const mine = restrict(edit.order, ids);
    const theirs = tasks.map((t) => t.id).filter((id) => mine.includes(id));
    if (sameOrder(mine, theirs)) {
      if (!options.complete && !reordered) remaining.push(edit);
      continue;
    }
    if (edit.told) continue;
    // The user's tasks take the slots they hold in the model's list, in the user's order.
    const queue = [...mine];
    const byId = new Map(tasks.map((t) => [t.id, t]));
    tasks = tasks.map((t) => (mine.includes(t.id) ? byId.get(queue.shift()!)! : t));
    keep(edit);
  }
  return { tasks, kept, edits: remaining };
}

function withoutBlocker<T extends Mergeable>(task: T, id: number): T {
  return task.blockedBy.includes(id) ? { ...task, blockedBy: task.blockedBy.filter((b) => b !== id) } : task;
}

/** Puts a dropped task back after the nearest task before it that is still in the list. */
function reinsert<T extends Mergeable>(tasks: T[], current: readonly T[], task: T): T[] {
  const ids = new Set(tasks.map((t) => t.id));
  const restored = { ...task, blockedBy: task.blockedBy.filter((b) => ids.has(b)) };
  const at = current.findIndex((t) => t.id === task.id);
  const anchor = current
    .slice(0, at)
    .reverse()
    .find((t) => ids.has(t.id));
  const index = anchor ? tasks.findIndex((t) => t.id === anchor.id) + 1 : 0;
  return [...tasks.slice(0, index), restored, ...tasks.slice(index)];
}

const STATUS_WORDS: Record<TaskStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  cancelled: 'cancelled',
};

/**
 * "Kept the user's changes: task 3 stays completed; task 6 'Write changelog' stays in the
 * list. Send them again if you really mean to change them." Null when nothing was kept.
 */
export function describeKept(kept: readonly UserEdit[]): string | null {
  if (!kept.length) return null;
  const parts = kept.map((edit) => {
    switch (edit.kind) {
      case 'status':
        return `task ${edit.id} stays ${STATUS_WORDS[edit.status]}`;
      case 'title':
        return `task ${edit.id} keeps the title '${edit.title}'`;
      case 'added':
        return `task ${edit.id} '${edit.title}' stays in the list`;
      case 'deleted':
        return `task ${edit.id} '${edit.title}' stays deleted`;
      case 'order':
        return "the tasks stay in the user's order";
    }
  });
  const them = kept.length === 1 ? 'it' : 'them';
  return `Kept the user's changes: ${parts.join('; ')}. Send ${them} again if you really mean to change ${them}.`;
}
