// The operations the tools and the header perform, as pure functions from the open list
// to the proposed one. The service checks the result against the rules and writes it.
import type { TaskStatus } from '../../../shared/tasks';
import type { Op, OpState, Who } from './taskService';
import type { DraftTask } from './taskTypes';
import {
  describeIds,
  isCleanTitle,
  joinAnd,
  LIST_TASKS_MAX,
  normalizeStatus,
  normalizeTaskId,
  normalizeTitle,
  STATUS_WORDS,
  TASK_ID_MAX,
  taskNotFound,
  type Checked,
} from './taskRules';

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = (error: string): Checked<never> => ({ ok: false, error });

/** Free text fields (description, activeForm) are trimmed and capped, never rejected. */
export const TEXT_MAX = 2000;
const text = (raw: string | undefined) => (raw === undefined ? undefined : raw.trim().slice(0, TEXT_MAX));

function find(state: OpState, id: number): Checked<DraftTask> {
  const task = state.tasks.find((t) => t.id === id);
  return task
    ? ok(task)
    : fail(
        taskNotFound(
          id,
          state.tasks.map((t) => t.id),
        ),
      );
}

/** Status changes made by an agent claim the task for that agent. */
function ownerAfter(task: DraftTask, status: TaskStatus, who: Who): string {
  return who.claims && status === 'in_progress' && task.status !== 'in_progress' ? who.owner : task.owner;
}

function withStatus(task: DraftTask, status: TaskStatus, who: Who): DraftTask {
  return { ...task, status, owner: ownerAfter(task, status, who) };
}

function nextId(tasks: DraftTask[]): number {
  return Math.max(0, ...tasks.map((t) => t.id)) + 1;
}

function newTask(id: number, title: string, who: Who, fields: Partial<DraftTask> = {}): DraftTask {
  return {
    rowId: null,
    id,
    title,
    description: '',
    activeForm: '',
    status: 'pending',
    owner: who.owner,
    blockedBy: [],
    lastMessageId: null,
    ...fields,
  };
}

function ids(raw: unknown[] | undefined, field: string): Checked<number[]> {
  const out: number[] = [];
  for (const value of raw ?? []) {
    const id = normalizeTaskId(value);
    if (!id.ok) return fail(`${field}: ${id.error}`);
    out.push(id.value);
  }
  return ok([...new Set(out)]);
}

function checkExisting(state: OpState, wanted: number[], field: string): Checked<void> {
  const have = new Set(state.tasks.map((t) => t.id));
  const missing = wanted.filter((id) => !have.has(id));
  if (missing.length) return fail(`${field}: ${missing.map((id) => taskNotFound(id, [...have])).join('; ')}`);
  return ok(undefined);
}

// ---- Full-list style -----------------------------------------------------------------

export interface FullListItem {
  id: unknown;
  title: unknown;
  description?: string;
  activeForm?: string;
  status: unknown;
}

export interface FullListOutcome {
  missing: DraftTask[];
  statusChanged: number[];
}

type ParsedItem = { id: number; title: string; status: TaskStatus; description?: string; activeForm?: string };

/** An item as the model usually writes it: a whole id, a canonical status, a title with nothing to trim. */
function plainItem(item: FullListItem): ParsedItem | null {
  const { id, title, status } = item;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > TASK_ID_MAX) return null;
  // A canonical status is a word that stands for itself.
  if (typeof status !== 'string' || !Object.hasOwn(STATUS_WORDS, status) || STATUS_WORDS[status] !== status)
    return null;
  if (!isCleanTitle(title)) return null;
  const description = text(item.description);
  const activeForm = text(item.activeForm);
  // Usually nothing needed trimming: the item already reads as its parsed form (one object fewer per task).
  if (description === item.description && activeForm === item.activeForm) return item as ParsedItem;
  return { id, title, status: status as TaskStatus, description, activeForm };
}

/** Items of a manage_todo_list call, each checked; every bad item is reported at once. */
export function parseItems(items: FullListItem[]): Checked<ParsedItem[]> {
  const errors: string[] = [];
  const parsed = items.map((item, index) => {
    const plain = plainItem(item);
    if (plain) return plain;
    const id = normalizeTaskId(item.id);
    const title = normalizeTitle(item.title);
    const status = normalizeStatus(item.status);
    if (!id.ok || !title.ok || !status.ok) {
      const label = `todoList[${index}]${id.ok ? ` (id ${id.value})` : ''}`;
      for (const result of [id, title, status]) if (!result.ok) errors.push(`${label}: ${result.error}`);
    }
    return {
      id: id.ok ? id.value : 0,
      title: title.ok ? title.value : '',
      status: status.ok ? status.value : ('pending' as TaskStatus),
      description: text(item.description),
      activeForm: text(item.activeForm),
    };
  });
  if (items.length > LIST_TASKS_MAX)
    errors.push(`todoList holds at most ${LIST_TASKS_MAX} items (got ${items.length})`);
  return errors.length ? fail(errors.join('; ')) : ok(parsed);
}

/**
 * Replaces the open list with the call's items: same id = same task. A finished list
 * from an earlier turn is replaced by a new list unless the call re-sends all of its
 * tasks (then the model is extending it).
 */
export function fullListOp(items: FullListItem[], who: Who): Op<FullListOutcome> {
  return (state) => {
    const parsed = parseItems(items);
    if (!parsed.ok) return parsed;
    // Needed only for blockers and for tasks the call left out, which most calls have neither of.
    let sentIds: Set<number> | null = null;
    const sent = () => (sentIds ??= new Set(parsed.value.map((i) => i.id)));
    const extendsFinished = () => {
      const titles = new Map(parsed.value.map((i) => [i.id, i.title]));
      return state.tasks.every((t) => titles.get(t.id) === t.title);
    };
    const startNew = state.finishedEarlier && !extendsFinished();
    const current = startNew ? [] : state.tasks;
    // Models re-send the list in its order: look at the same place first, then search.
    let byId: Map<number, DraftTask> | null = null;
    const oldOf = (id: number, index: number) =>
      current[index]?.id === id ? current[index] : (byId ??= new Map(current.map((t) => [t.id, t]))).get(id);
    const statusChanged: number[] = [];
    const tasks = parsed.value.map((item, index): DraftTask => {
      const old = oldOf(item.id, index);
      if (!old) {
        if (item.status === 'completed') statusChanged.push(item.id);
        return newTask(item.id, item.title, who, {
          status: item.status,
          description: item.description ?? '',
          activeForm: item.activeForm ?? '',
        });
      }
      if (old.status !== item.status) statusChanged.push(item.id);
      const description = item.description ?? old.description;
      const activeForm = item.activeForm ?? old.activeForm;
      const owner = ownerAfter(old, item.status, who);
      // A blocker the call dropped no longer holds anything back.
      const blockedBy = old.blockedBy.length ? old.blockedBy.filter((id) => sent().has(id)) : old.blockedBy;
      // Most items re-send their task unchanged: keep that task (this runs for every task of every call).
      if (
        old.status === item.status &&
        old.title === item.title &&
        old.description === description &&
        old.activeForm === activeForm &&
        old.owner === owner &&
        old.blockedBy === blockedBy
      ) {
        return old;
      }
      return { ...old, status: item.status, owner, title: item.title, description, activeForm, blockedBy };
    });
    const missing =
      tasks.length === current.length && tasks.every((t, i) => t.id === current[i].id)
        ? []
        : current.filter((t) => !sent().has(t.id));
    return ok({ tasks, startNew, value: { missing, statusChanged } });
  };
}

// ---- Granular style ------------------------------------------------------------------

export interface CreateInput {
  title: unknown;
  description?: string;
  activeForm?: string;
  blockedBy?: unknown[];
}

/** Adds a task at the end; in a list finished in an earlier turn, starts a new list at 1. */
export function createOp(input: CreateInput, who: Who, options: { newListWhenFinished: boolean }): Op<{ id: number }> {
  return (state) => {
    const title = normalizeTitle(input.title);
    if (!title.ok) return title;
    const blockedBy = ids(input.blockedBy, 'blockedBy');
    if (!blockedBy.ok) return blockedBy;
    const startNew = options.newListWhenFinished && state.finishedEarlier;
    const base = startNew ? [] : state.tasks;
    const known = checkExisting({ ...state, tasks: base }, blockedBy.value, 'blockedBy');
    if (!known.ok) return known;
    const id = nextId(base);
    const task = newTask(id, title.value, who, {
      description: text(input.description) ?? '',
      activeForm: text(input.activeForm) ?? '',
      blockedBy: blockedBy.value,
    });
    return ok({ tasks: [...base, task], startNew, value: { id } });
  };
}

export interface UpdateInput {
  taskId: unknown;
  status?: unknown;
  title?: unknown;
  description?: string;
  activeForm?: string;
  addBlockedBy?: unknown[];
  removeBlockedBy?: unknown[];
}

export function updateOp(input: UpdateInput, who: Who): Op<{ id: number; changed: string[] }> {
  return (state) => {
    const id = normalizeTaskId(input.taskId);
    if (!id.ok) return fail(`taskId: ${id.error}`);
    const found = find(state, id.value);
    if (!found.ok) return found;
    let task = found.value;
    const changed: string[] = [];
    if (input.status !== undefined) {
      const status = normalizeStatus(input.status);
      if (!status.ok) return status;
      if (status.value !== task.status) changed.push('status');
      task = withStatus(task, status.value, who);
    }
    if (input.title !== undefined) {
      const title = normalizeTitle(input.title);
      if (!title.ok) return title;
      if (title.value !== task.title) changed.push('title');
      task = { ...task, title: title.value };
    }
    for (const field of ['description', 'activeForm'] as const) {
      const value = text(input[field]);
      if (value === undefined) continue;
      if (value !== task[field]) changed.push(field);
      task = { ...task, [field]: value };
    }
    const add = ids(input.addBlockedBy, 'addBlockedBy');
    if (!add.ok) return add;
    const remove = ids(input.removeBlockedBy, 'removeBlockedBy');
    if (!remove.ok) return remove;
    for (const [list, field] of [
      [add.value, 'addBlockedBy'],
      [remove.value, 'removeBlockedBy'],
    ] as const) {
      const known = checkExisting(state, list, field);
      if (!known.ok) return known;
    }
    const blockedBy = [...new Set([...task.blockedBy.filter((b) => !remove.value.includes(b)), ...add.value])].sort(
      (a, b) => a - b,
    );
    if (blockedBy.join(',') !== task.blockedBy.join(',')) changed.push('blockedBy');
    task = { ...task, blockedBy };
    return ok({ tasks: state.tasks.map((t) => (t.id === task.id ? task : t)), value: { id: task.id, changed } });
  };
}

/** Removes a task; tasks it blocked lose that dependency. */
export function deleteOp(taskId: unknown): Op<{ removed: DraftTask }> {
  return (state) => {
    const id = normalizeTaskId(taskId);
    if (!id.ok) return fail(`taskId: ${id.error}`);
    const found = find(state, id.value);
    if (!found.ok) return found;
    const tasks = state.tasks
      .filter((t) => t.id !== id.value)
      .map((t) =>
        t.blockedBy.includes(id.value) ? { ...t, blockedBy: t.blockedBy.filter((b) => b !== id.value) } : t,
      );
    return ok({ tasks, value: { removed: found.value } });
  };
}

/** What Undo of a delete puts back: the task, where it stood, and the tasks it blocked. */
export interface RestoredTask {
  task: Omit<DraftTask, 'rowId' | 'handedBack' | 'changedBy'>;
  position: number;
  blocks: number[];
}

/** Undoes `deleteOp`: the task at its place with its fields, and its dependencies on tasks still there. */
export function restoreOp({ task, position, blocks }: RestoredTask): Op<{ id: number }> {
  return (state) => {
    if (state.tasks.some((t) => t.id === task.id))
      return fail(`Task ${task.id} cannot come back: the list has a task ${task.id} again.`);
    const have = new Set(state.tasks.map((t) => t.id));
    const restored: DraftTask = { ...task, rowId: null, blockedBy: task.blockedBy.filter((id) => have.has(id)) };
    const tasks = state.tasks.map((t) =>
      blocks.includes(t.id) && !t.blockedBy.includes(task.id)
        ? { ...t, blockedBy: [...t.blockedBy, task.id].sort((a, b) => a - b) }
        : t,
    );
    tasks.splice(Math.min(Math.max(0, position), tasks.length), 0, restored);
    return ok({ tasks, value: { id: task.id } });
  };
}

// ---- The user, from the header ---------------------------------------------------------

export function userUpdateOp(
  taskId: number,
  patch: { status?: TaskStatus; title?: string; removeBlockedBy?: number[] },
): Op<{ id: number }> {
  return (state) => {
    const found = find(state, taskId);
    if (!found.ok) return found;
    const update = updateOp(
      { taskId, status: patch.status, title: patch.title, removeBlockedBy: patch.removeBlockedBy },
      { actor: 'user', owner: 'main', claims: false },
    )(state);
    return update.ok ? ok({ tasks: update.value.tasks, value: { id: taskId } }) : update;
  };
}

export function userAddOp(title: string, who: Who): Op<{ id: number }> {
  return createOp({ title }, who, { newListWhenFinished: false });
}

/** `order` must name every task of the list exactly once. */
export function reorderOp(order: number[]): Op<null> {
  return (state) => {
    const have = state.tasks.map((t) => t.id);
    if (have.length === 0) return fail('There is no open task list to reorder.');
    const unknown = order.filter((id) => !have.includes(id));
    const left = have.filter((id) => !order.includes(id));
    const twice = order.filter((id, i) => order.indexOf(id) !== i);
    if (unknown.length || left.length || twice.length) {
      const parts = [
        unknown.length ? `unknown ${joinAnd(unknown.map(String))}` : '',
        left.length ? `missing ${joinAnd(left.map(String))}` : '',
        twice.length ? `repeated ${joinAnd([...new Set(twice)].map(String))}` : '',
      ].filter(Boolean);
      return fail(`The new order must list tasks ${describeIds(have)} once each (${parts.join('; ')}).`);
    }
    const byId = new Map(state.tasks.map((t) => [t.id, t]));
    return ok({ tasks: order.map((id) => byId.get(id)!), value: null });
  };
}
