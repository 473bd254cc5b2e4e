// Writes the difference between two versions of a list as row writes and task_events:
// deletions, insertions, changed fields, new positions and blockers, and one `reordered`
// event for the tasks that moved.
import { movedTasks } from './movedTasks';
import { sourceOf, type Who } from './taskActors';
import type { TaskStore } from './taskStore';
import type { DraftTask, ListRows } from './taskTypes';

const COMPARED = ['title', 'description', 'activeForm', 'status', 'owner'] as const;

const blockerKey = (task: DraftTask) => [...task.blockedBy].sort((x, y) => x - y).join(',');

function snapshot(task: DraftTask) {
  const { rowId: _row, lastMessageId: _message, ...rest } = task;
  return rest;
}

/** Runs for every task of every change, so it allocates only when something differs. */
function changedFields(a: DraftTask, b: DraftTask): Array<keyof DraftTask> | null {
  // Most tasks of a call are unchanged (often the very same object): say so without looking fields up by name.
  if (a === b) return null;
  if (
    a.title === b.title &&
    a.description === b.description &&
    a.activeForm === b.activeForm &&
    a.status === b.status &&
    a.owner === b.owner &&
    (a.handedBack ?? null) === (b.handedBack ?? null) &&
    a.blockedBy.length + b.blockedBy.length === 0
  ) {
    return null;
  }
  let out: Array<keyof DraftTask> | null = null;
  for (const field of COMPARED) if (a[field] !== b[field]) (out ??= []).push(field);
  if ((a.handedBack ?? null) !== (b.handedBack ?? null)) (out ??= []).push('handedBack');
  if ((a.blockedBy.length || b.blockedBy.length) && blockerKey(a) !== blockerKey(b)) (out ??= []).push('blockedBy');
  return out;
}

function pick(task: DraftTask, fields: Array<keyof DraftTask>) {
  const out: Record<string, unknown> = { id: task.id };
  for (const field of fields) out[field] = task[field];
  return out;
}

/** Writes the difference between two versions of a list; returns whether anything changed. */
export function writeDiff(
  store: TaskStore,
  listId: number,
  rows: ListRows,
  before: DraftTask[],
  after: DraftTask[],
  who: Who,
  at: number,
  messageId: number | null,
): boolean {
  // Runs on every change of lists of up to 200 tasks. Ids usually keep their places:
  // the index of the old list is built only when one does not.
  let changed = false;
  let oldIndex: Map<number, number> | null = null;
  const indexOf = (id: number, position: number) =>
    before[position]?.id === id ? position : (oldIndex ??= new Map(before.map((t, index) => [t.id, index]))).get(id);
  const sameIds = after.length === before.length && after.every((t, i) => t.id === before[i].id);
  const keep = sameIds ? null : new Set(after.map((t) => t.id));
  for (const old of keep ? before : []) {
    if (keep!.has(old.id) || old.rowId === null) continue;
    store.appendEvent({ listId, taskId: old.rowId, at, actor: who.actor, kind: 'deleted', before: snapshot(old) });
    store.deleteTask(old.rowId, rows);
    changed = true;
  }
  const inserted = new Map<number, number>();
  const blockersChanged: DraftTask[] = [];
  let lastSurvivor = -1;
  let reordered = false;
  after.forEach((task, position) => {
    const index = indexOf(task.id, position);
    const old = index === undefined ? undefined : before[index];
    if (index !== undefined) {
      if (index < lastSurvivor) reordered = true;
      lastSurvivor = index;
    }
    if (!old || old.rowId === null) {
      const rowId = store.insertTask(
        listId,
        { ...task, lastMessageId: messageId, changedBy: sourceOf(who) },
        position,
        at,
        rows,
      );
      inserted.set(task.id, rowId);
      store.appendEvent({ listId, taskId: rowId, at, actor: who.actor, kind: 'created', after: snapshot(task) });
      if (task.blockedBy.length) blockersChanged.push(task);
      changed = true;
      return;
    }
    const fields = changedFields(old, task);
    if (fields) {
      store.updateTask({ ...task, rowId: old.rowId, lastMessageId: messageId, changedBy: sourceOf(who) }, at, rows);
      store.appendEvent({
        listId,
        taskId: old.rowId,
        at,
        actor: who.actor,
        kind: 'updated',
        before: pick(old, fields),
        after: pick(task, fields),
      });
      if (fields.includes('blockedBy')) blockersChanged.push(task);
      changed = true;
    }
    // Lists are stored in order, so a task whose index is unchanged keeps its position.
    if (index !== position) store.setPosition(old.rowId, position, rows);
  });
  const rowOf = (id: number) => inserted.get(id) ?? before[indexOf(id, -1)!].rowId!;
  for (const task of blockersChanged) {
    store.setBlockers(rowOf(task.id), task.blockedBy.map(rowOf), rows);
  }
  // The surviving tasks are in their old order exactly when their old indexes only grow.
  if (reordered) {
    const survivors = before.filter((t) => !keep || keep.has(t.id)).map((t) => t.id);
    const order = after.filter((t, position) => indexOf(t.id, position) !== undefined).map((t) => t.id);
    store.appendEvent({
      listId,
      taskId: null,
      at,
      actor: who.actor,
      kind: 'reordered',
      before: survivors,
      after: order,
    });
    // The tasks it moved show who moved them, as a renamed task shows who renamed it.
    for (const id of movedTasks(survivors, order)) store.setChangedBy(rowOf(id), sourceOf(who), rows);
    changed = true;
  }
  return changed;
}
