// The task list's rows as the header and the plan review card both show them, with the
// row of a task being added at the end.
import type { ReactNode } from 'react';
import type { Task, TaskList } from '../../shared/tasks';
import { useLatestGetter } from '../common/useLatest';
import { AddTaskRow } from './AddTaskRow';
import type { RunState } from './runState';
import { TaskRow } from './TaskRow';
import { rowPlace } from './taskView';

export function TaskRows(props: {
  conversationId: string;
  list: TaskList;
  /** What a row says of its owner's run (see `RunState`). */
  runStateOf: (task: Task) => RunState;
  onJump: (id: number, transcriptId?: string) => void;
  /** A new task's row is open at the end. */
  adding: boolean;
  onAddDone: () => void;
  /** What a row shows besides the task (the plan review's comment). */
  extra?: (task: Task, index: number) => ReactNode;
}) {
  const { conversationId, list } = props;
  // Stable across pushes and the conversation's re-renders, so unchanged rows skip rendering.
  const listNow = useLatestGetter(list);
  return (
    <ol className="task-rows" aria-label="Task list">
      {list.tasks.map((task, i) => (
        <TaskRow
          key={task.id}
          {...rowPlace(list, i)}
          listNow={listNow}
          conversationId={conversationId}
          runState={props.runStateOf(task)}
          onJump={props.onJump}
        >
          {props.extra?.(task, i)}
        </TaskRow>
      ))}
      {props.adding && <AddTaskRow conversationId={conversationId} onDone={props.onAddDone} />}
    </ol>
  );
}
