// The task ledger: every tool call an agent makes while one of its tasks is in progress
// is linked to that task. The renderer lists a task's calls and jumps to their cards.
import { z } from 'zod';
import { ConversationId } from './domain';

/**
 * How a tool call ended: ran (`ok`), failed (`error`), refused by the user, stopped, or
 * held for plan review (not made: it changes things and the plan is not approved yet).
 */
export const ToolOutcome = z.enum(['ok', 'error', 'denied', 'cancelled', 'held']);
export type ToolOutcome = z.infer<typeof ToolOutcome>;

/**
 * Task bookkeeping, not work: the list's own updates (its history shows them), thinking
 * and the clock. Such calls are not a task's ledger entries, so "N tool calls" and the
 * task exports count and list real actions only.
 */
export const BOOKKEEPING_TOOLS: readonly string[] = [
  'manage_todo_list',
  'task_create',
  'task_update',
  'task_get',
  'task_list',
  'task_delete',
  'think',
  'get_current_time',
];

/** How much of a result the ledger keeps (and exports). */
export const LEDGER_RESULT_CHARS = 500;

export const LedgerCall = z.object({
  id: z.number().int(),
  name: z.string(),
  outcome: ToolOutcome,
  /** `main` or a worker's owner id such as `worker-2`. */
  agentId: z.string(),
  startedAt: z.number().int(),
  endedAt: z.number().int(),
  /** Where its card is: the conversation itself, or a worker's transcript. */
  transcriptId: ConversationId,
  /** The stored tool result (null once that part of the transcript was removed). */
  messageId: z.number().int().nullable(),
  toolCallId: z.string(),
});
export type LedgerCall = z.infer<typeof LedgerCall>;

/** How many calls each task of the open list made, for the "N tool calls" button. */
export const LedgerCounts = z.object({
  listId: z.number().int().nullable(),
  counts: z.array(z.object({ taskId: z.number().int(), count: z.number().int() })),
});
export type LedgerCounts = z.infer<typeof LedgerCounts>;

/** "1 tool call", "4 tool calls". */
export function toolCallCountLabel(count: number): string {
  return `${count} tool ${count === 1 ? 'call' : 'calls'}`;
}
