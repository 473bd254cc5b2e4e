// A list's task rows as SQLite returns them, turned into what the service edits
// (DraftTask) and what main and renderer see (TaskList) — and kept in step, in memory,
// with the writes of one change, so the list after a change is built without reading
// it again. Each patch here mirrors one statement in taskStore.ts; the random sequences
// in tests/unit/tasks.property.test.ts check that every pushed list equals a fresh read.
import type { Task, TaskList } from '../../../shared/tasks';
import type { DraftTask, ListInfo, ListRows, TaskRow } from './taskTypes';
import { isOpen } from './taskRules';

/** Display order, as `ORDER BY position, seq`. */
function ordered(rows: readonly TaskRow[]): readonly TaskRow[] {
  const before = (a: TaskRow, b: TaskRow) => a.position - b.position || a.seq - b.seq;
  // Rows are read, and kept by a change, in display order: sort only when they are not.
  for (let i = 1; i < rows.length; i++) if (before(rows[i - 1], rows[i]) > 0) return [...rows].sort(before);
  return rows;
}

const NO_ROWS: readonly TaskRow[] = [];
/** The blockers of a task with none: one frozen array for all of them (most tasks have none). */
const NO_IDS = Object.freeze([]) as unknown as number[];
const seqs = (rows: readonly TaskRow[]) => (rows.length ? rows.map((b) => b.seq) : NO_IDS);

/** Blocker rows of a task row, by seq (ids of rows that are gone are skipped). */
function blockersOf(list: ListRows, byId: () => Map<number, TaskRow>, rowId: number): readonly TaskRow[] {
  const ids = list.blockers.get(rowId);
  if (!ids?.length) return NO_ROWS;
  const map = byId();
  const rows = ids.map((id) => map.get(id)).filter((r): r is TaskRow => r !== undefined);
  return rows.sort((a, b) => a.seq - b.seq);
}

/** Row by id, built on first use: most lists have no blockers and never need it. */
function rowIndex(list: ListRows): () => Map<number, TaskRow> {
  let map: Map<number, TaskRow> | null = null;
  return () => (map ??= new Map(list.rows.map((r) => [r.id, r])));
}

/** What a draft and a shown task both take from a row. */
const fieldsOf = (r: TaskRow) => ({
  id: r.seq,
  title: r.title,
  description: r.description,
  activeForm: r.active_form,
  status: r.status,
  owner: r.owner,
  lastMessageId: r.last_message_id,
  handedBack: r.handed_back ?? null,
  changedBy: r.changed_by ?? null,
});

const draftOf = (r: TaskRow, blockedBy: number[]): DraftTask => ({ ...fieldsOf(r), rowId: r.id, blockedBy });

function taskOf(r: TaskRow, by: readonly TaskRow[]): Task {
  return {
    ...fieldsOf(r),
    position: r.position,
    blockedBy: seqs(by),
    openBlockers: by.length ? seqs(by.filter((b) => isOpen(b.status))) : NO_IDS,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
  };
}

export function draftFrom(list: ListRows): DraftTask[] {
  const byId = rowIndex(list);
  return ordered(list.rows).map((r) => draftOf(r, seqs(blockersOf(list, byId, r.id))));
}

export function taskListFrom(info: ListInfo, list: ListRows): TaskList {
  const byId = rowIndex(list);
  const tasks = ordered(list.rows).map((r) => taskOf(r, blockersOf(list, byId, r.id)));
  const { id, conversationId, createdAt, closedAt } = info;
  return { id, conversationId, createdAt, closedAt, tasks };
}

/** In-memory twins of the store's task writes. */
export const mirror = {
  insert(list: ListRows, row: TaskRow): void {
    list.rows.push({ ...row });
  },
  /** As the UPDATE: completed_at is kept while completed, set when it becomes so, cleared otherwise. */
  update(list: ListRows, task: DraftTask & { rowId: number }, at: number): void {
    const row = list.rows.find((r) => r.id === task.rowId);
    if (!row) return;
    row.title = task.title;
    row.description = task.description;
    row.active_form = task.activeForm;
    row.status = task.status;
    row.owner = task.owner;
    row.updated_at = at;
    row.last_message_id = task.lastMessageId;
    row.handed_back = task.handedBack ?? null;
    row.changed_by = task.changedBy ?? null;
    row.completed_at = task.status === 'completed' ? (row.completed_at ?? at) : null;
  },
  position(list: ListRows, rowId: number, position: number): void {
    const row = list.rows.find((r) => r.id === rowId);
    if (row) row.position = position;
  },
  changedBy(list: ListRows, rowId: number, changedBy: string | null): void {
    const row = list.rows.find((r) => r.id === rowId);
    if (!row) return;
    row.changed_by = changedBy;
  },
  /** task_deps rows go with the task (ON DELETE CASCADE on both sides). */
  remove(list: ListRows, rowId: number): void {
    list.rows = list.rows.filter((r) => r.id !== rowId);
    list.blockers.delete(rowId);
    for (const [task, ids] of list.blockers)
      list.blockers.set(
        task,
        ids.filter((id) => id !== rowId),
      );
  },
  blockers(list: ListRows, rowId: number, blockerRowIds: readonly number[]): void {
    list.blockers.set(rowId, [...new Set(blockerRowIds)]);
  },
};
