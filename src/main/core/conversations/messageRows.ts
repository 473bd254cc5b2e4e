// A `messages` row as a message: the columns read back into the shared Message shape.
import type { Message, MessageRole, ToolCall } from '../../../shared/domain';
import type { MessageKind, Plumbing } from '../../../shared/messageKinds';
import type { Row } from '../db/tables';

/** A `messages` row as SQLite returns it. */
export type MessageRow = Row<'messages'>;

/** A row's columns as a message, but its tool calls: each reader parses those its own way. */
export function messageFields(row: MessageRow): Omit<Message, 'toolCalls' | 'attachments'> {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    role: row.role,
    content: row.content,
    createdAt: row.created_at,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    status: row.status,
    error: row.error,
    origin: row.origin,
    reasoning: row.reasoning ? { text: row.reasoning, durationMs: row.reasoning_ms ?? null } : null,
    usage:
      row.prompt_tokens != null && row.completion_tokens != null
        ? { promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens, cost: row.cost ?? null }
        : null,
    model: row.model ?? null,
    summaryThrough: row.summary_through ?? null,
    outcome: row.outcome ?? null,
    kind: row.kind,
    plumbing: row.payload ? readPlumbing(row.payload) : null,
  };
}

/** A stored payload: validated when it was written (Plumbing, in the contract). */
const readPlumbing = (json: string): Plumbing => JSON.parse(json) as Plumbing;

/** The kind of a message that is not plumbing, from its role. */
export function plainKind(role: MessageRole, summaryThrough?: number | null): MessageKind {
  if (role === 'system') return summaryThrough != null ? 'summary' : 'note';
  return role;
}

export function toMessage(row: MessageRow): Message {
  return { ...messageFields(row), toolCalls: row.tool_calls ? (JSON.parse(row.tool_calls) as ToolCall[]) : null };
}
