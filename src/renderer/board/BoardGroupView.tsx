// One conversation on the board: its folder and title, k/N and the task in progress,
// then the tasks the filter shows, in list order.
import type { BoardGroup } from '../../shared/boardContract';
import type { Task } from '../../shared/tasks';
import { currentTask, progressOf } from '../../shared/taskProgress';
import { revealBidiControls } from '../../shared/bidi';
import { BoardTaskRow } from './BoardTaskRow';

export function BoardGroupView(props: {
  group: BoardGroup;
  tasks: Task[];
  closed: boolean;
  onOpen: (conversationId: string, task: Task | null) => void;
}) {
  const { group, tasks, closed } = props;
  const { done, total } = progressOf(group.list.tasks);
  const current = closed ? null : currentTask(group.list);
  const title = revealBidiControls(group.title) || 'Untitled conversation';
  return (
    <section className="board-group" aria-label={group.title || 'Untitled conversation'}>
      <header className="board-group-header">
        <button type="button" className="board-conversation" onClick={() => props.onOpen(group.conversationId, null)}>
          {group.folder && <span className="board-folder">{revealBidiControls(group.folder.name)} /</span>}
          <span className="board-conversation-title">{title}</span>
        </button>
        <span className="board-progress" aria-label={`${done} of ${total} done`}>
          {done}/{total}
        </span>
        <span className="board-current">
          {closed ? 'This list was closed.' : current ? `Now: ${revealBidiControls(current.title)}` : ''}
        </span>
      </header>
      <ul className="board-tasks" aria-label={`Tasks of ${group.title || 'Untitled conversation'}`}>
        {tasks.map((task) => (
          <BoardTaskRow
            key={task.id}
            task={task}
            list={group.list}
            conversationId={group.conversationId}
            onOpen={(t) => props.onOpen(group.conversationId, t)}
          />
        ))}
        {tasks.length === 0 && (
          <li className="board-note">
            {closed ? 'Closed lists are kept in the history.' : 'No task matches the filter now.'}
          </li>
        )}
      </ul>
    </section>
  );
}
