// Pure presentation rules for task rows, shared by the header and its tests.
import type { Task, TaskList } from '../../shared/tasks';

export type RowKind = 'pending' | 'in_progress' | 'completed' | 'blocked' | 'cancelled';

export function rowKind(task: Task): RowKind {
  if (task.status === 'pending' && task.openBlockers.length > 0) return 'blocked';
  return task.status;
}

const KIND_WORDS: Record<RowKind, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  blocked: 'blocked',
  cancelled: 'cancelled',
};

/**
 * A task's number as the rows show it: its place in the list (1, 2, 3 after any reorder),
 * not its id. The id stays what the calls and the model use.
 */
export function taskNumber(list: Pick<TaskList, 'tasks'>, id: number): number {
  const index = list.tasks.findIndex((t) => t.id === id);
  return index < 0 ? id : index + 1;
}

/** "#1, #3": the task's open blockers by number. */
export function blockerNumbers(list: Pick<TaskList, 'tasks'>, task: Task): string {
  return task.openBlockers.map((id) => `#${taskNumber(list, id)}`).join(', ');
}

/** What a row of the list's `index`-th task takes from its place: its number, its blockers' numbers, first or last. */
export function rowPlace(list: TaskList, index: number) {
  const task = list.tasks[index];
  return {
    task,
    listId: list.id,
    number: index + 1,
    blockedLabel: blockerNumbers(list, task),
    first: index === 0,
    last: index === list.tasks.length - 1,
  };
}

/** "Task 2, blocked by 1: …": `number` is the task's place, `list` gives its blockers' places. */
export function rowLabel(task: Task, number: number, list: Pick<TaskList, 'tasks'>): string {
  const kind = rowKind(task);
  const state =
    kind === 'blocked'
      ? `blocked by ${task.openBlockers.map((id) => taskNumber(list, id)).join(', ')}`
      : KIND_WORDS[kind];
  return `Task ${number}, ${state}: ${task.title}`;
}

export function moved(list: TaskList, taskId: number, delta: number): number[] | null {
  const order = list.tasks.map((t) => t.id);
  const from = order.indexOf(taskId);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= order.length) return null;
  order.splice(to, 0, ...order.splice(from, 1));
  return order;
}
