// One task in the header: status icon, tick box, its number (place in the list), title
// (+ activeForm while in progress), owner badge, and a menu to rename, move, delete (with
// Undo) or drop a dependency. Drag to reorder, or Alt+↑/↓ on the focused row. Ticking a
// blocked task says what it waits for and offers to drop that dependency.
import { memo, useState, type DragEvent, type ReactNode } from 'react';
import type { Task, TaskList } from '../../shared/tasks';
import { handedBackLabel } from '../../shared/taskProgress';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { MenuButton } from '../common/Menu';
import { InlineRename } from '../common/InlineRename';
import { useClickOrDoubleClick } from '../common/useClickOrDoubleClick';
import { moved, rowKind, rowLabel, taskNumber } from './taskView';
import { ownerLabel } from '../../shared/boardView';
import type { RunState } from './runState';
import './taskHints.css';
import { revealBidiControls } from '../../shared/bidi';
import './TaskRow.css';
import { TaskLedger } from './TaskLedger';

const ICON: Record<ReturnType<typeof rowKind>, string> = {
  pending: '○',
  in_progress: '',
  completed: '✓',
  blocked: '',
  cancelled: '⊘',
};

const DRAG_TYPE = 'application/x-stepwise-task';

// Memoized: a pushed change renders only the rows whose task changed (useTaskList keeps the
// other task objects), so every prop here is a value or a stable function.
export const TaskRow = memo(function TaskRow(props: {
  task: Task;
  /** The list as it is now, read when the user reorders (a stable getter, not a prop that changes with every push). */
  listNow: () => TaskList;
  listId: number;
  /** Its place in the list, 1-based: the number the row shows. */
  number: number;
  /** Its open blockers by number ("#1, #3"): a value, so the row re-renders when they move. */
  blockedLabel: string;
  /** Whether this is the first or the last task (Move up / Move down). */
  first: boolean;
  last: boolean;
  conversationId: string;
  /** For an in-progress task: null while its owner runs, else why it does not. */
  runState: RunState;
  /** `transcriptId`: a worker's transcript, when the message is there. */
  onJump: (messageId: number, transcriptId?: string) => void;
  /** Shown under the title (the review card's comment on the task). */
  children?: ReactNode;
}) {
  const { task, listNow, conversationId } = props;
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const [renaming, setRenaming] = useState(false);
  // Ticking a blocked task: what it waits for, and the way to stop waiting.
  const [explainBlock, setExplainBlock] = useState(false);
  const { number } = props;
  // A click jumps to the task's message; a double-click only renames.
  const gestures = useClickOrDoubleClick(
    () => {
      if (props.task.lastMessageId !== null) props.onJump(props.task.lastMessageId);
    },
    () => setRenaming(true),
  );
  const [dropTarget, setDropTarget] = useState(false);
  const kind = rowKind(task);
  const handedBack = handedBackLabel(task);

  const update = (patch: { status?: Task['status']; title?: string; removeBlockedBy?: number[] }) =>
    void guard(() => call(api, 'tasks:update', { conversationId, taskId: task.id, patch }));
  const numberOf = (id: number) => taskNumber(listNow(), id);
  const blockers = kind === 'blocked' ? task.openBlockers : [];
  const unblock = (id: number) => {
    setExplainBlock(false);
    update({ removeBlockedBy: [id] });
  };
  // Undo puts it back where it was, with what it waited for and what waited for it.
  const remove = async () => {
    const before = listNow().tasks;
    const position = before.findIndex((t) => t.id === task.id);
    const blocks = before.filter((t) => t.blockedBy.includes(task.id)).map((t) => t.id);
    const { id, title, description, activeForm, status, owner, blockedBy, lastMessageId } = task;
    const done = await guard(() => call(api, 'tasks:delete', { conversationId, taskId: id }));
    if (!done) return;
    toast(`Deleted task ${number}, “${title}”.`, 'info', {
      label: 'Undo',
      onSelect: () =>
        void guard(() =>
          call(api, 'tasks:restore', {
            conversationId,
            task: { id, title, description, activeForm, status, owner, blockedBy, lastMessageId },
            position: Math.max(0, position),
            blocks,
          }),
        ),
    });
  };
  const reorder = (order: number[] | null) => {
    if (order) void guard(() => call(api, 'tasks:reorder', { conversationId, order }));
  };
  const move = (delta: number) => reorder(moved(listNow(), task.id, delta));

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropTarget(false);
    const dragged = Number(event.dataTransfer.getData(DRAG_TYPE));
    if (!dragged || dragged === task.id) return;
    const order = listNow()
      .tasks.map((t) => t.id)
      .filter((id) => id !== dragged);
    order.splice(order.indexOf(task.id), 0, dragged);
    reorder(order);
  };

  return (
    <li
      className={`task-row task-${kind}${dropTarget ? ' drop-target' : ''}`}
      draggable={!renaming}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, String(task.id));
        e.dataTransfer.effectAllowed = 'move';
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) {
          e.preventDefault();
          setDropTarget(true);
        }
      }}
      onDragLeave={() => setDropTarget(false)}
      onDrop={onDrop}
    >
      {/* The status icon is the tick box: one control, the icon says the state. */}
      <button
        type="button"
        role="checkbox"
        className="task-icon"
        aria-checked={task.status === 'completed'}
        aria-label={`Task ${number} done`}
        title={task.status === 'completed' ? 'Mark as not done' : 'Mark as done'}
        onClick={() =>
          kind === 'blocked'
            ? setExplainBlock(true)
            : update({ status: task.status === 'completed' ? 'pending' : 'completed' })
        }
      >
        {/* A handed-back task waits for the main agent: nothing runs it, so it does not spin. */}
        {handedBack ? (
          <span aria-hidden="true">◔</span>
        ) : kind === 'blocked' ? (
          <BlockedIcon />
        ) : kind !== 'in_progress' ? (
          <span aria-hidden="true">{ICON[kind]}</span>
        ) : props.runState === null ? (
          <span className="spinner" aria-hidden="true" />
        ) : (
          <span className="task-still" aria-hidden="true" />
        )}
      </button>
      <span className="task-seq" aria-hidden="true">
        {number}
      </span>
      {/* Only the title is in the button, so its visible text is part of its accessible name. */}
      <span className="task-text">
        {renaming ? (
          <InlineRename
            initial={task.title}
            label={`Rename task ${number}`}
            className="task-rename"
            onDone={(title) => {
              setRenaming(false);
              if (title && title !== task.title) update({ title });
            }}
          />
        ) : (
          <button
            type="button"
            className="task-main task-title"
            aria-label={rowLabel(task, number, listNow())}
            title={task.description || undefined}
            onClick={gestures.onClick}
            onDoubleClick={gestures.onDoubleClick}
            onKeyDown={(e) => {
              if (e.altKey && e.key === 'ArrowUp') {
                e.preventDefault();
                move(-1);
              } else if (e.altKey && e.key === 'ArrowDown') {
                e.preventDefault();
                move(1);
              } else if (e.key === 'F2') {
                e.preventDefault();
                e.stopPropagation();
                setRenaming(true);
              }
            }}
          >
            {revealBidiControls(task.title)}
          </button>
        )}
        {kind === 'in_progress' && task.activeForm && props.runState === null && (
          <span className="task-active">{task.activeForm}</span>
        )}
        {kind === 'in_progress' && props.runState !== null && (
          <span className={`task-hint hint-${props.runState.replaceAll(' ', '-')}`}>{props.runState}</span>
        )}
        {kind === 'blocked' && <span className="task-blocked">blocked by {props.blockedLabel}</span>}
        {explainBlock && kind === 'blocked' && (
          <span className="task-block-note" role="alert">
            Task {number} waits for {props.blockedLabel}: finish {blockers.length === 1 ? 'that task' : 'those tasks'}{' '}
            first, or stop waiting.
            {blockers.map((id) => (
              <button key={id} type="button" onClick={() => unblock(id)}>
                Remove dependency on #{numberOf(id)}
              </button>
            ))}
            <button type="button" className="ghost" onClick={() => setExplainBlock(false)}>
              Keep waiting
            </button>
          </span>
        )}
        {task.changedBy && <span className="task-source">Changed by {revealBidiControls(task.changedBy)}</span>}
        <TaskLedger
          conversationId={conversationId}
          listId={props.listId}
          taskId={task.id}
          number={number}
          onJump={props.onJump}
        />
        {props.children}
      </span>
      {task.owner !== 'main' && <span className="owner-badge">{ownerLabel(task.owner)}</span>}
      {handedBack && (
        <span className="task-handed-back" role="img" aria-label={handedBack} title={handedBack}>
          ⚠
        </span>
      )}
      <MenuButton
        label={`Actions for task ${number}`}
        className="task-row-menu"
        items={[
          { label: 'Rename', onSelect: () => setRenaming(true) },
          {
            label: task.status === 'cancelled' ? 'Restore' : 'Cancel task',
            onSelect: () => update({ status: task.status === 'cancelled' ? 'pending' : 'cancelled' }),
          },
          { label: 'Move up', disabled: props.first, onSelect: () => move(-1) },
          { label: 'Move down', disabled: props.last, onSelect: () => move(1) },
          ...blockers.map((id) => ({ label: `Remove dependency on #${numberOf(id)}`, onSelect: () => unblock(id) })),
          { label: 'Delete', danger: true, onSelect: () => void remove() },
        ]}
      >
        ⋯
      </MenuButton>
    </li>
  );
});

/** Blocked: a small padlock (not the ▸ "play" glyph, which reads as "start"). */
function BlockedIcon() {
  return (
    <svg aria-hidden="true" className="task-blocked-icon" viewBox="0 0 16 16" width="12" height="12">
      <path
        fill="currentColor"
        d="M5 7V5a3 3 0 0 1 6 0v2h.5A1.5 1.5 0 0 1 13 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-7A1.5 1.5 0 0 1 3 13.5v-5A1.5 1.5 0 0 1 4.5 7Zm1.5 0h3V5a1.5 1.5 0 0 0-3 0Z"
      />
    </svg>
  );
}
