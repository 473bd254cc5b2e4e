// Workers (sub-agents the main agent starts) and Autopilot, as the renderer sees them.
import { z } from 'zod';
import { ConversationId } from './domain';

export const WorkerStatus = z.enum(['queued', 'running', 'done', 'error', 'stopped']);
export type WorkerStatus = z.infer<typeof WorkerStatus>;

export const Worker = z.object({
  /** The worker's own transcript is a child conversation with this id. */
  id: ConversationId,
  conversationId: ConversationId,
  /** 1..n within the parent conversation: "Worker 2". */
  number: z.number().int(),
  /** The owner id its task tool calls act with, e.g. `worker-2`. */
  owner: z.string(),
  taskId: z.number().int().nullable(),
  description: z.string(),
  status: WorkerStatus,
  /** What it is doing right now while running. */
  activity: z.enum(['streaming', 'tool', 'waiting', 'idle']).nullable(),
  /** The worker asked the user a question and waits for the answer (⚠ in the UI). */
  needsInput: z.boolean(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type Worker = z.infer<typeof Worker>;

export const AutopilotState = z.object({
  conversationId: ConversationId,
  enabled: z.boolean(),
  /** Continuations made since the user's last message. */
  steps: z.number().int(),
  cap: z.number().int(),
  /** Why Autopilot paused (cap reached, doubtful verdict, failed request), or null. */
  pausedReason: z.string().nullable(),
  /** The assessor is being asked whether the current task is done (Stop cancels it). */
  checking: z.boolean(),
  /**
   * The task Autopilot's running step continues with ("Continuing: …"): set when it sends
   * its `next_task` message, null once that step's turn ends, and on Stop or takeover.
   */
  continuing: z.string().nullable(),
});
export type AutopilotState = z.infer<typeof AutopilotState>;

/** The first line of a worker's result as the main agent gets it: "Worker 2 (task 2) finished:". */
export function workerResultHeader(worker: number, taskId: number | null, verb: 'finished' | 'failed'): string {
  return `Worker ${worker}${taskId !== null ? ` (task ${taskId})` : ''} ${verb}:`;
}

const REOPEN = 'Reopen it if the result is not enough.';

/** What the main agent gets when a worker's result completed its task. */
export function workerCompletedMessage(worker: number, taskId: number, answer: string): string {
  return `Task ${taskId} was completed by worker ${worker} with this result:\n\n${answer}\n\n${REOPEN}`;
}
