// MCP tool calls waiting for the user's approval: this feature's part of the IPC contract
// (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { Approval, ApprovalDecision } from './mcp';

export const approvalCalls = {
  /** Tool calls of a conversation (and its workers) waiting for the user. */
  'approvals:list': call(z.strictObject({ conversationId: ConversationId }), z.array(Approval)),
  'approvals:answer': call(z.strictObject({ id: z.uuid(), decision: ApprovalDecision }), Approval),
} as const;

export const approvalEvents = {
  /** The calls waiting for approval in a conversation (its workers' included) changed. */
  'approvals:changed': z.object({ conversationId: ConversationId, approvals: z.array(Approval) }),
} as const;
