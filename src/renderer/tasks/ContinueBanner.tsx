// The line in the task header when the agent is not at work and tasks are left: "Stopped ·
// 3 of 5 tasks left" after Stop, "Paused · …" when a turn simply ended, "Interrupted · …"
// after a quit or a crash, always with "Continue remaining tasks".
// Nothing resumes by itself; the button sends the agent on at the current task.
import type { TaskList } from '../../shared/tasks';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import type { ContinuityKind } from '../../shared/continuityContract';
import './ContinueBanner.css';

/** Tasks still to do (pending or in progress) of those that count (not cancelled). */
export function tasksLeft(list: TaskList): { left: number; total: number } {
  const counted = list.tasks.filter((t) => t.status !== 'cancelled');
  return { left: counted.filter((t) => t.status !== 'completed').length, total: counted.length };
}

const LABEL: Record<ContinuityKind, string> = { stopped: 'Stopped', paused: 'Paused', interrupted: 'Interrupted' };

/** Whether the header offers "Continue remaining tasks" (then it is the one way on). */
export function offersContinue(kind: ContinuityKind | null, list: TaskList | null, running: boolean): boolean {
  return !!kind && !!list && !running && tasksLeft(list).left > 0;
}

export function ContinueBanner(props: {
  conversationId: string;
  list: TaskList;
  running: boolean;
  kind: ContinuityKind | null;
}) {
  const api = useApi();
  const guard = useGuard();
  const { kind } = props;
  const { left, total } = tasksLeft(props.list);
  if (!kind || !offersContinue(kind, props.list, props.running)) return null;
  const label = LABEL[kind];
  return (
    <div className={`continue-banner ${kind}`} role="status">
      <span className="continue-text">
        {label} · {left} of {total} {total === 1 ? 'task' : 'tasks'} left
      </span>
      <button
        type="button"
        className="small"
        onClick={() => void guard(() => call(api, 'continuity:resume', { conversationId: props.conversationId }))}
      >
        Continue remaining tasks
      </button>
    </div>
  );
}
