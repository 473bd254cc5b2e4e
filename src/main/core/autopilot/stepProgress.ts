// Whether an Autopilot step got anywhere: a step that made no tool call and changed no
// task's status did nothing Autopilot can build on. Two such steps in a row on the same
// task (the user chose Continue after "not done", and nothing happened again) pause it with
// "No progress on task N" instead of asking the assessor once more. Steps on different
// tasks are progress: the assessor completed the one before.
import type { Message } from '../../../shared/domain';
import type { TaskList } from '../../../shared/tasks';

/** Steps in a row without progress that pause Autopilot. */
export const IDLE_STEPS_TO_PAUSE = 2;

/** The statuses of a list in one comparable string ("" without a list). */
export function statusKey(list: TaskList | null): string {
  return list ? list.tasks.map((t) => `${t.id}:${t.status}`).join(',') : '';
}

/** Whether any reply after the step's automatic message (the last next task or continue) called a tool. */
export function stepCalledTools(messages: readonly Message[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.kind === 'next_task' || message.kind === 'continue') return false;
    if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) return true;
  }
  return false;
}

/** The step made progress: a tool call, or any task's status differs from the step's start. */
export function madeProgress(startKey: string, list: TaskList | null, messages: readonly Message[]): boolean {
  return statusKey(list) !== startKey || stepCalledTools(messages);
}

/** Steps in a row without progress on one task. */
export interface Idle {
  taskId: number;
  count: number;
}

/** The idle run after a step on `taskId`: over on progress, counted on for the same task, begun anew for another. */
export function nextIdle(idle: Idle | null, taskId: number, progressed: boolean): Idle | null {
  if (progressed) return null;
  return idle && idle.taskId === taskId ? { taskId, count: idle.count + 1 } : { taskId, count: 1 };
}

export function noProgressReason(task: { id: number; title: string }): string {
  return `No progress on task ${task.id} “${task.title}”: the last ${IDLE_STEPS_TO_PAUSE} steps on it made no tool calls and changed no task. Autopilot paused.`;
}
