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
