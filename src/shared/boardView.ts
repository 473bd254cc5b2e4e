// The task board's matching rules, without zod: the renderer applies them to a list that
// `tasks:changed` pushed, and core applies the same ones to what it reads, so a live
// update and a fresh page can never disagree about what the board shows.

/** What a task looks like on the board: `blocked` is a pending task with open blockers. */
export type BoardTaskStatus = 'pending' | 'in_progress' | 'blocked' | 'completed' | 'cancelled';

export interface BoardFilterShape {
  /** Empty: every status. */
  statuses: readonly ('pending' | 'in_progress' | 'blocked' | 'completed')[];
  /** Only lists of conversations in this folder; null: every folder and none. */
  folderId: string | null;
  /** Matches conversation titles and task titles, ignoring case. */
  text: string;
  /** Also show open lists whose every task is done (completed or cancelled). */
  showCompleted: boolean;
}

interface TaskShape {
  id: number;
  title: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
  openBlockers: readonly number[];
}

export const ALL_OPEN: BoardFilterShape = { statuses: [], folderId: null, text: '', showCompleted: false };

export function boardStatus(task: Pick<TaskShape, 'status' | 'openBlockers'>): BoardTaskStatus {
  if (task.status === 'pending' && task.openBlockers.length > 0) return 'blocked';
  return task.status;
}

/** The needle as matched: trimmed and lower-cased ('' matches everything). */
export const foldText = (text: string): string => text.trim().toLowerCase();

/** Whether `haystack` holds `needle` (already folded), ignoring case. */
export function containsText(haystack: string, needle: string): boolean {
  return needle === '' || haystack.toLowerCase().includes(needle);
}

const isUnfinished = (task: TaskShape) => task.status === 'pending' || task.status === 'in_progress';

/**
 * The tasks of a list the board shows, in list order: those of a chosen status, and when
 * there is text, those whose title holds it (all of them when the conversation's does).
 */
export function shownTasks<T extends TaskShape>(
  tasks: readonly T[],
  conversationTitle: string,
  filter: BoardFilterShape,
): T[] {
  const needle = foldText(filter.text);
  const titleHit = containsText(conversationTitle, needle);
  return tasks.filter(
    (task) =>
      (filter.statuses.length === 0 || filter.statuses.includes(boardStatus(task) as never)) &&
      (titleHit || containsText(task.title, needle)),
  );
}

/** Whether the board lists a conversation's open list at all under the filter. */
export function listMatches(
  group: { title: string; folderId: string | null; tasks: readonly TaskShape[] },
  filter: BoardFilterShape,
): boolean {
  if (group.tasks.length === 0) return false;
  if (!filter.showCompleted && !group.tasks.some(isUnfinished)) return false;
  if (filter.folderId !== null && group.folderId !== filter.folderId) return false;
  return shownTasks(group.tasks, group.title, filter).length > 0;
}

/** "main agent" or "Worker 2" for an owner id such as `worker-2`: the name its transcript and questions show. */
export function ownerLabel(owner: string): string {
  if (owner === 'main') return 'main agent';
  const worker = /^worker-(\d+)$/.exec(owner);
  return worker ? `Worker ${worker[1]}` : owner;
}
