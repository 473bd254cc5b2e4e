// One task on the board: tick box, title (opens the conversation at the task), status,
// owner and blockers, and a menu to rename or move it. Edits are the header's calls.
import { useState } from 'react';
import type { Task, TaskList } from '../../shared/tasks';
import { boardStatus, ownerLabel } from '../../shared/boardView';
import { revealBidiControls } from '../../shared/bidi';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { MenuButton } from '../common/Menu';
import { InlineRename } from '../common/InlineRename';
import { blockerNumbers, moved, rowLabel, taskNumber } from '../tasks/taskView';

const STATUS_WORDS = {
  pending: 'Pending',
  in_progress: 'In progress',
  blocked: 'Blocked',
  completed: 'Completed',
  cancelled: 'Cancelled',
} as const;

export function BoardTaskRow(props: {
  task: Task;
  list: TaskList;
  conversationId: string;
  onOpen: (task: Task) => void;
}) {
  const { task, list, conversationId } = props;
  const api = useApi();
  const guard = useGuard();
  const [renaming, setRenaming] = useState(false);
  const status = boardStatus(task);
  const number = taskNumber(list, task.id);
  const update = (patch: { status?: Task['status']; title?: string }) =>
    void guard(() => call(api, 'tasks:update', { conversationId, taskId: task.id, patch }));
  const move = (delta: number) => {
    const order = moved(list, task.id, delta);
    if (order) void guard(() => call(api, 'tasks:reorder', { conversationId, order }));
  };

  return (
    <li className={`board-task board-${status}`}>
      <button
        type="button"
        role="checkbox"
        className="board-tick"
        aria-checked={task.status === 'completed'}
        aria-label={`Task ${number} done`}
        title={task.status === 'completed' ? 'Mark as not done' : 'Mark as done'}
        onClick={() => update({ status: task.status === 'completed' ? 'pending' : 'completed' })}
      >
        <span aria-hidden="true">{task.status === 'completed' ? '✓' : ''}</span>
      </button>
      <span className="board-seq" aria-hidden="true">
        {number}
      </span>
      {renaming ? (
        <InlineRename
          initial={task.title}
          label={`Rename task ${number}`}
          className="board-rename"
          onDone={(title) => {
            setRenaming(false);
            if (title && title !== task.title) update({ title });
          }}
        />
      ) : (
        <button
          type="button"
          className="board-title"
          aria-label={rowLabel(task, number, list)}
          title={task.description || task.title}
          onClick={() => props.onOpen(task)}
          onKeyDown={(e) => {
            if (e.key === 'F2') {
              e.preventDefault();
              setRenaming(true);
            } else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
              e.preventDefault();
              move(e.key === 'ArrowUp' ? -1 : 1);
            }
          }}
        >
          {revealBidiControls(task.title)}
        </button>
      )}
      <span className={`board-status status-${status}`}>{STATUS_WORDS[status]}</span>
      {task.openBlockers.length > 0 && <span className="board-blockers">blocked by {blockerNumbers(list, task)}</span>}
      {task.changedBy && <span className="board-source">Changed by {revealBidiControls(task.changedBy)}</span>}
      <span className="board-owner">{ownerLabel(task.owner)}</span>
      <MenuButton
        label={`Actions for task ${number}`}
        className="board-task-menu"
        items={[
          { label: 'Rename', onSelect: () => setRenaming(true) },
          { label: 'Move up', disabled: list.tasks[0]?.id === task.id, onSelect: () => move(-1) },
          { label: 'Move down', disabled: list.tasks.at(-1)?.id === task.id, onSelect: () => move(1) },
        ]}
      >
        ⋯
      </MenuButton>
    </li>
  );
}
