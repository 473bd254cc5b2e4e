// Sends only what a streaming reply gained since the last event: a 1 MB reply costs 1 MB of
// frames, not 1 MB per frame. Tool calls are small and go whole when they change; the
// reasoning grows like the text, and its duration goes out once the thinking has ended.
// When the text was rewritten rather than extended (a `</think>` with no opening tag turns
// the text so far into reasoning), the whole message goes out once instead.
import type { Message } from '../../../shared/domain';
import type { EventBus } from '../ipc/eventBus';

export type StreamedSnapshot = () => Pick<Message, 'content' | 'toolCalls' | 'reasoning'>;

export function streamedEmitter(
  bus: EventBus,
  row: Message,
  snapshot: StreamedSnapshot,
  /** Changes whenever the text so far was rewritten. */
  textEpoch: () => number,
): () => void {
  let sent = 0;
  let sentCalls = 'null';
  let sentReasoning = 0;
  let sentMs: number | null = null;
  let epoch = textEpoch();
  return () => {
    const { content, toolCalls, reasoning } = snapshot();
    const calls = JSON.stringify(toolCalls);
    const thought = reasoning?.text ?? '';
    const ms = reasoning?.durationMs ?? null;
    if (textEpoch() !== epoch) {
      epoch = textEpoch();
      bus.emit('messages:changed', {
        conversationId: row.conversationId,
        message: { ...row, content, toolCalls, reasoning },
      });
    } else {
      const text = content.slice(sent);
      const more = thought.slice(sentReasoning);
      if (!text && !more && calls === sentCalls && ms === sentMs) return;
      bus.emit('messages:streamed', {
        conversationId: row.conversationId,
        messageId: row.id,
        ...(text ? { content: { at: sent, text } } : {}),
        ...(calls !== sentCalls ? { toolCalls } : {}),
        ...(more ? { reasoning: { at: sentReasoning, text: more } } : {}),
        ...(ms !== sentMs && ms !== null ? { reasoningMs: ms } : {}),
      });
    }
    sent = content.length;
    sentCalls = calls;
    sentReasoning = thought.length;
    sentMs = ms;
  };
}
