// The task ledger: every tool call linked to the task in progress; this feature's part of
// the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { LedgerCall, LedgerCounts } from './ledger';

export const ledgerCalls = {
  /** How many tool calls each task of the open list made (the task ledger). */
  'ledger:counts': call(z.strictObject({ conversationId: ConversationId }), LedgerCounts),
  /** The tool calls made while a task of the open list was in progress, oldest first. */
  'ledger:calls': call(
    z.strictObject({ conversationId: ConversationId, taskId: z.number().int() }),
    z.object({ calls: z.array(LedgerCall) }),
  ),
} as const;

export const ledgerEvents = {
  /** A tool call was linked to a task of the open list; `count` is that task's calls so far. */
  'ledger:changed': z.object({
    conversationId: ConversationId,
    listId: z.number().int(),
    taskId: z.number().int(),
    count: z.number().int(),
  }),
} as const;
