// Progress rules shared by the core, the exports and the renderer. Type-only imports:
// this module must not pull zod into the renderer's first chunk.
import type { Task, TaskList, TaskStatus } from './tasks';

/**
 * Progress of a list: completed out of the tasks that count. Cancelled tasks do not
 * count, so a list with a cancelled task can still be "all done". One rule for the
 * header, the sidebar badge, the prompt block and every export.
 */
export function progressOf(tasks: readonly { status: TaskStatus }[]): {
  done: number;
  total: number;
  cancelled: number;
} {
  let done = 0;
  let cancelled = 0;
  for (const task of tasks) {
    if (task.status === 'completed') done++;
    else if (task.status === 'cancelled') cancelled++;
  }
  return { done, total: tasks.length - cancelled, cancelled };
}

/**
 * The sidebar's `k/N` badge of an open list (null for none or an empty one): the same
 * count as the badge query in taskStore.ts. The sidebar keeps it in step from
 * `tasks:changed`, so a task change is one pushed event, not two.
 */
export function taskBadge(
  tasks: readonly { status: TaskStatus }[] | null | undefined,
): { done: number; total: number } | null {
  if (!tasks?.length) return null;
  const { done, total } = progressOf(tasks);
  return { done, total };
}

/** The task shown as "current": the main agent's in-progress task, else one a worker runs. */
export function currentTask(list: TaskList): Task | null {
  const active = list.tasks.filter((t) => t.status === 'in_progress');
  return active.find((t) => t.owner === 'main') ?? active[0] ?? null;
}

/** "Worker 2 failed; handed back" — the ⚠ label of a handed-back task, or null. */
export function handedBackLabel(task: Pick<Task, 'owner' | 'handedBack'>): string | null {
  if (!task.handedBack) return null;
  const worker = /^worker-(\d+)$/.exec(task.owner);
  const who = worker ? `Worker ${worker[1]}` : 'The worker';
  const what = { failed: 'failed', stopped: 'was stopped', unfinished: 'ended without completing it' }[task.handedBack];
  return `${who} ${what}; handed back`;
}
