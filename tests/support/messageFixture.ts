// A stored message for tests of what reads a history (requests, repair, compaction): every
// field a reader may look at, with the ones a test is about given by the test.
import type { Message } from '../../src/shared/domain';

let nextId = 1;

export function message(partial: Partial<Message> & Pick<Message, 'role'>): Message {
  return {
    id: nextId++,
    conversationId: '00000000-0000-4000-8000-000000000000',
    content: '',
    createdAt: 0,
    toolCalls: null,
    toolCallId: null,
    toolName: null,
    status: 'complete',
    error: null,
    origin: partial.role === 'user' ? 'user' : 'system',
    usage: null,
    model: null,
    summaryThrough: null,
    ...partial,
  };
}
