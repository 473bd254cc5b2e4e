// The chat status's error when nothing is in memory (after a restart): read from the last
// shown message, so a reply left cut short still offers Retry.
import type { ChatError } from '../../../shared/domain';
import type { MessageRepo } from '../conversations/messageRepo';
import type { Db } from '../db/openDatabase';
import { interruptedError } from './chatErrors';

export function createDerivedError(db: Db, messages: Pick<MessageRepo, 'get'>) {
  const lastId = db.prepare<[string], { id: number }>(
    'SELECT id FROM messages WHERE conversation_id = ? AND shown = 1 ORDER BY id DESC LIMIT 1',
  );
  return function derivedError(conversationId: string): ChatError | null {
    const row = lastId.get(conversationId);
    const message = row ? messages.get(row.id) : undefined;
    if (!message) return null;
    if (message.role === 'assistant' && (message.status === 'interrupted' || message.status === 'error')) {
      return message.status === 'interrupted' && !message.error
        ? interruptedError()
        : { kind: 'unknown', message: message.error ?? 'The request failed.', retryable: true, settings: false };
    }
    // A loop that died between a tool call and the next request (crash mid-tool).
    if (message.role === 'tool' || (message.role === 'assistant' && message.toolCalls?.length))
      return interruptedError();
    return null;
  };
}
