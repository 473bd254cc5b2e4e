// A task opened from the board is shown in its conversation: the task header starts
// expanded there (the header's own remembered choice, set as if the user had opened it).
import type { Task } from '../../shared/tasks';
import { STORAGE_PREFIX } from '../tasks/TaskHeader';

export function showTaskOnOpen(conversationId: string, task: Task | null): void {
  if (task) localStorage.setItem(STORAGE_PREFIX + conversationId, '1');
}
