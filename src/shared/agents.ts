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
   * its `NEXT_TODO:` message, null once that step's turn ends, and on Stop or takeover.
   */
  continuing: z.string().nullable(),
});
export type AutopilotState = z.infer<typeof AutopilotState>;

/** How Autopilot's automatic message starts: `NEXT_TODO: <task title>`. */
export const NEXT_TODO = 'NEXT_TODO: ';

/** The first line of a worker's result as the main agent gets it: "Worker 2 (task 2) finished:". */
export function workerResultHeader(worker: number, taskId: number | null, verb: 'finished' | 'failed'): string {
  return `Worker ${worker}${taskId !== null ? ` (task ${taskId})` : ''} ${verb}:`;
}

const REOPEN = 'Reopen it if the result is not enough.';

/** What the main agent gets when a worker's result completed its task. */
export function workerCompletedMessage(worker: number, taskId: number, answer: string): string {
  return `Task ${taskId} was completed by worker ${worker} with this result:\n\n${answer}\n\n${REOPEN}`;
}

export interface WorkerResult {
  worker: number;
  taskId: number | null;
  verb: 'finished' | 'failed';
  /** The result (and any note after it), without the header line. */
  body: string;
}

/** Reads a worker's result message back (for the transcript's one-line card); null if it is not one. */
export function parseWorkerResult(content: string): WorkerResult | null {
  const completed = /^Task (\d+) was completed by worker (\d+) with this result:[^\S\n]*\n?/.exec(content);
  if (completed) {
    const rest = content.slice(completed[0].length);
    const at = rest.indexOf(`\n\n${REOPEN}`);
    const body = (at >= 0 ? rest.slice(0, at) + rest.slice(at + REOPEN.length + 2) : rest).trim();
    return { worker: Number(completed[2]), taskId: Number(completed[1]), verb: 'finished', body };
  }
  const match = /^Worker (\d+)(?: \(task (\d+)\))? (finished|failed):[^\S\n]*\n?/.exec(content);
  if (!match) return null;
  return {
    worker: Number(match[1]),
    taskId: match[2] ? Number(match[2]) : null,
    verb: match[3] as 'finished' | 'failed',
    body: content.slice(match[0].length).trim(),
  };
}
