// Whether the review card's version of the plan may be approved or sent back now: the
// refusals a user can act on (review off, the agent still busy, a stale or oversized plan).
import { PLAN_MAX_TASKS, type PlanComments, type PlanPhase, type PlanTask } from '../../../shared/planContract';
import { sameTasks } from '../../../shared/planText';
import type { TaskList } from '../../../shared/tasks';
import { AppError } from '../ipc/dispatcher';

/** A list's tasks as a plan (id and title: what review compares). */
export function planOf(list: TaskList): PlanTask[] {
  return list.tasks.map((t) => ({ id: t.id, title: t.title }));
}

export interface ReviewSituation {
  mode: string;
  phase: PlanPhase;
  list: TaskList | null;
  /** The agent is working in the conversation. */
  running: boolean;
}

/** The open list, if the card's version of it may be reviewed now; otherwise a clear refusal (`stale` runs first when the card is out of date). */
export function reviewableList(
  now: ReviewSituation,
  shown: PlanTask[],
  comments: PlanComments,
  stale: () => void,
): TaskList {
  const { mode, phase, list } = now;
  if (mode === 'off') throw new AppError('conflict', 'Plan review is off in this conversation.');
  if (now.running) {
    throw new AppError(
      'conflict',
      'The assistant is still working on the plan. Wait for it to finish (or stop it), then review the plan.',
    );
  }
  if (!list || !list.tasks.length) throw new AppError('conflict', 'There is no plan to review in this conversation.');
  if (phase === 'approved') throw new AppError('conflict', 'This plan is already approved.');
  if (!sameTasks(planOf(list), shown)) {
    stale();
    throw new AppError(
      'conflict',
      'The plan changed while you were reviewing it. Review the new version, then approve it or request changes again.',
    );
  }
  if (list.tasks.length > PLAN_MAX_TASKS) {
    throw new AppError(
      'invalid_request',
      `A plan holds at most ${PLAN_MAX_TASKS} tasks; delete some before approving it.`,
    );
  }
  const unknown = comments.tasks.find((c) => !list.tasks.some((t) => t.id === c.taskId));
  if (unknown)
    throw new AppError(
      'invalid_request',
      `There is a comment on task ${unknown.taskId}, which is not in the plan. Remove the comment and try again.`,
    );
  return list;
}
