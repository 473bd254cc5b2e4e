// Turns stored messages into what the chat shows: tool results are folded into the
// tool-call cards of the assistant message that asked for them.
import type { Message } from '../../shared/domain';
import { plannedCalls, type ToolCallView } from './toolSummary';

export interface DisplayItem {
  message: Message;
  toolCalls: ToolCallView[];
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
  return items;
}
