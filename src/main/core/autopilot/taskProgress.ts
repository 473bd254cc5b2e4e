// Which task Autopilot works on, and the one change it makes to a list: complete the
// current task and start the next available one, in a single operation (so the service
// writes both in one transaction, with actor `assessor`).
import type { Task, TaskList, TaskStatus } from '../../../shared/tasks';
import { currentTask } from '../../../shared/taskProgress';
import type { Op, Who } from '../tasks/taskService';
import { updateOp } from '../tasks/taskOps';
import { isOpen } from '../tasks/taskRules';
import type { DraftTask } from '../tasks/taskTypes';

/** The assessor acts for the conversation's own agent: a task it starts belongs to `main`. */
export const ASSESSOR: Who = { actor: 'assessor', owner: 'main', claims: true };

interface Progressable {
  id: number;
  status: TaskStatus;
  blockedBy: readonly number[];
}

/** Tasks whose owner is not `main` and that are in progress: a worker runs them (unless it handed them back). */
export function isDelegatedByOwner(_conversationId: string, task: Task): boolean {
  return task.status === 'in_progress' && task.owner !== 'main' && !task.handedBack;
}

export { currentTask };

export function hasOpenWork(list: TaskList | null): boolean {
  return list !== null && list.tasks.some((t) => isOpen(t.status));
}

/**
 * The first pending task (in list order) whose blockers are all completed or cancelled,
 * leaving out `skip` (tasks handed to a worker).
 */
export function nextAvailable<T extends Progressable>(
  tasks: readonly T[],
  skip: ReadonlySet<number> = new Set(),
): T | null {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return (
    tasks.find(
      (t) =>
        t.status === 'pending' &&
        !skip.has(t.id) &&
        t.blockedBy.every((id) => !isOpen(byId.get(id)?.status ?? 'completed')),
    ) ?? null
  );
}

export interface Advanced {
  completed: DraftTask | null;
  next: DraftTask | null;
}

/**
 * Completes `done` (when given) and starts the next available task. Refuses when the
 * task is no longer the one that was assessed (the list changed during the check), so a
 * verdict never lands on a different task.
 */
export function advanceOp(
  done: { id: number; title: string } | null,
  skip: ReadonlySet<number> = new Set(),
): Op<Advanced> {
  return (state) => {
    let tasks = state.tasks;
    let completed: DraftTask | null = null;
    if (done) {
      const task = tasks.find((t) => t.id === done.id);
      if (!task || task.status !== 'in_progress' || task.title !== done.title) {
        return { ok: false, error: `task ${done.id} changed while Autopilot was checking it` };
      }
      const update = updateOp({ taskId: done.id, status: 'completed' }, ASSESSOR)(state);
      if (!update.ok) return update;
      tasks = update.value.tasks;
      completed = tasks.find((t) => t.id === done.id) ?? null;
    }
    const candidate = nextAvailable(tasks, skip);
    let next: DraftTask | null = null;
    if (candidate) {
      const start = updateOp({ taskId: candidate.id, status: 'in_progress' }, ASSESSOR)({ ...state, tasks });
      if (!start.ok) return start;
      tasks = start.value.tasks;
      next = tasks.find((t) => t.id === candidate.id) ?? null;
    }
    return { ok: true, value: { tasks, value: { completed, next } } };
  };
}
