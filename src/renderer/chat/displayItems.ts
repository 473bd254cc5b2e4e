// Turns stored messages into what the chat shows: tool results are folded into the
// tool-call cards of the assistant message that asked for them, and the model responses
// of one agent turn (every response and tool call until the turn ends) into one reply.
import type { Message } from '../../shared/domain';
import { plannedCalls, type ToolCallView } from './toolSummary';

export interface DisplayItem {
  /** The message shown; for a reply of several responses, its first (the one versions are of). */
  message: Message;
  toolCalls: ToolCallView[];
  /** A reply of several model responses: each with its own calls, in order. */
  steps?: Array<{ message: Message; toolCalls: ToolCallView[] }>;
}

/** `partial`: older messages are not loaded, so a list may already be open before the first one shown. */
export function toDisplayItems(messages: Message[], partial = false): DisplayItem[] {
  const results = new Map<string, Message>();
  for (const m of messages) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  const items: DisplayItem[] = [];
  for (const message of messages) {
    if (message.role === 'tool') continue;
    items.push({
      message,
      toolCalls: (message.toolCalls ?? []).map((call) => ({ call, result: results.get(call.id) ?? null })),
    });
  }
  const planned = plannedCalls(
    items.flatMap((item) => item.toolCalls),
    partial,
  );
  for (const item of items) for (const view of item.toolCalls) view.planned = planned.has(view.call.id);
  return oneReplyPerTurn(items);
}

/**
 * Consecutive model responses (their tool results are folded in already) are one turn:
 * one reply with its text parts and step lines in order. Anything else ends the turn.
 */
function oneReplyPerTurn(items: DisplayItem[]): DisplayItem[] {
  const out: DisplayItem[] = [];
  for (const item of items) {
    const last = out.at(-1);
    if (item.message.role === 'assistant' && last?.message.role === 'assistant') {
      const steps = last.steps ?? [{ message: last.message, toolCalls: last.toolCalls }];
      out[out.length - 1] = {
        message: last.message,
        toolCalls: [...last.toolCalls, ...item.toolCalls],
        steps: [...steps, { message: item.message, toolCalls: item.toolCalls }],
      };
    } else {
      out.push(item);
    }
  }
  return out;
}
