// The line in the task header after the agent stopped with tasks left, or was cut off by
// a quit or a crash: "Stopped · 3 of 5 tasks left" and "Continue remaining tasks".
// Nothing resumes by itself; the button sends the agent on at the current task.
import type { TaskList } from '../../shared/tasks';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { useContinuity } from './useContinuity';
import './ContinueBanner.css';

/** Tasks still to do (pending or in progress) of those that count (not cancelled). */
export function tasksLeft(list: TaskList): { left: number; total: number } {
  const counted = list.tasks.filter((t) => t.status !== 'cancelled');
  return { left: counted.filter((t) => t.status !== 'completed').length, total: counted.length };
}

export function ContinueBanner(props: { conversationId: string; list: TaskList; running: boolean }) {
  const api = useApi();
  const guard = useGuard();
  const kind = useContinuity(props.conversationId);
  const { left, total } = tasksLeft(props.list);
  if (!kind || props.running || left === 0) return null;
  const label = kind === 'interrupted' ? 'Interrupted' : 'Stopped';
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
