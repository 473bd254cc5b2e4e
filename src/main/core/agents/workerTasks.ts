// What a worker's end does to the parent's task list, as one operation the task service
// writes in the same transaction as the worker's result: a worker that ends with a
// result completes its assigned task; any task it leaves in progress is handed back to
// the main agent, still in progress, marked with why (the row shows a ⚠).
import { workerCompletedMessage } from '../../../shared/agents';
import type { HandedBack } from '../../../shared/tasks';
import type { Op } from '../tasks/taskService';
import { checkChange, isOpen } from '../tasks/taskRules';

export type WorkerEnd = 'done' | 'error' | 'stopped';

const REASON: Record<WorkerEnd, HandedBack> = { done: 'unfinished', error: 'failed', stopped: 'stopped' };

export interface WorkerEndOutcome {
  /** The assigned task, when it is completed (now or by the worker itself). */
  completed: number | null;
  handedBack: number[];
}

export function workerEndOp(owner: string, taskId: number | null, ended: WorkerEnd): Op<WorkerEndOutcome> {
  return (state) => {
    let tasks = state.tasks;
    const assigned = taskId === null ? undefined : tasks.find((t) => t.id === taskId && t.owner === owner);
    let completed = assigned?.status === 'completed' ? assigned.id : null;
    if (ended === 'done' && assigned && isOpen(assigned.status)) {
      const next = tasks.map((t) => (t === assigned ? { ...t, status: 'completed' as const, handedBack: null } : t));
      // A rule the completion would break (an unfinished blocker) leaves it handed back instead.
      if (checkChange(state.tasks, next).length === 0) {
        tasks = next;
        completed = assigned.id;
      }
    }
    const handedBack: number[] = [];
    tasks = tasks.map((t) => {
      if (t.owner !== owner || t.status !== 'in_progress') return t;
      handedBack.push(t.id);
      return { ...t, handedBack: REASON[ended] };
    });
    return { ok: true, value: { tasks, value: { completed, handedBack } } };
  };
}

/** The main agent's next request reads this as the worker's result. */
export function completedMessage(worker: { number: number }, taskId: number, answer: string): string {
  return workerCompletedMessage(worker.number, taskId, answer);
}

export function handedBackNote(ids: readonly number[]): string {
  if (!ids.length) return '';
  const which = ids.length === 1 ? `Task ${ids[0]} is` : `Tasks ${ids.join(', ')} are`;
  return `${which} handed back to you, still in progress: start a new worker for ${ids.length === 1 ? 'it' : 'them'}, finish ${ids.length === 1 ? 'it' : 'them'} yourself, or set ${ids.length === 1 ? 'it' : 'them'} pending.`;
}
