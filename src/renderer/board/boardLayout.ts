// Fixed row heights (board.css keeps every row to one line), so the virtualizer knows a
// group's height from its task count without measuring the DOM.
import type { BoardGroup } from '../../shared/boardContract';
import { shownTasks, type BoardFilterShape } from '../../shared/boardView';

export const GROUP_HEADER = 56;
export const TASK_ROW = 34;
export const GROUP_GAP = 12;
/** A group whose page has not arrived yet: a header and a few rows. */
export const PLACEHOLDER = GROUP_HEADER + 4 * TASK_ROW + GROUP_GAP;

/** Tasks the group shows; a group whose tasks all stopped matching keeps one line saying so. */
export function groupRows(group: BoardGroup, filter: BoardFilterShape, closed: boolean) {
  const tasks = closed ? [] : shownTasks(group.list.tasks, group.title, filter);
  return { tasks, height: GROUP_HEADER + Math.max(tasks.length, 1) * TASK_ROW + GROUP_GAP };
}
