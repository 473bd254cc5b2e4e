// The transcript shows one reply per agent turn: consecutive model responses (with their
// tool results folded into their calls) are one item, its steps in order; a user message,
// a plumbing message or a note ends the turn. Copy takes the text parts, the token count
// adds up every response.
import { describe, expect, it } from 'vitest';
import { toDisplayItems } from '../../src/renderer/chat/displayItems';
import { replyText, replyUsage } from '../../src/renderer/chat/TurnReply';
import { message } from '../support/messageFixture';

const call = (id: string, name = 'lookup') => ({ id, name, arguments: '{}' });

describe('one reply per turn', () => {
  it('groups a turn of three responses and four calls into one item, and a new turn starts after the user', () => {
    const history = [
      message({ role: 'user', content: 'Go' }),
      message({ role: 'assistant', content: 'Let me look.', toolCalls: [call('a'), call('b')] }),
      message({ role: 'tool', toolCallId: 'a', content: 'A' }),
      message({ role: 'tool', toolCallId: 'b', content: 'B' }),
      message({ role: 'assistant', content: '', toolCalls: [call('c', 'think'), call('d')] }),
      message({ role: 'tool', toolCallId: 'c', content: 'C' }),
      message({ role: 'tool', toolCallId: 'd', content: 'D' }),
      message({
        role: 'assistant',
        content: 'Done.',
        usage: { promptTokens: 10, completionTokens: 2, cost: null },
      }),
      message({
        role: 'user',
        origin: 'auto',
        kind: 'next_task',
        plumbing: { kind: 'next_task', task: 'Two' },
      }),
      message({ role: 'assistant', content: 'Step two.' }),
    ];
    const items = toDisplayItems(history);
    expect(items.map((i) => [i.message.role, i.steps?.length ?? 1])).toEqual([
      ['user', 1],
      ['assistant', 3],
      ['user', 1],
      ['assistant', 1],
    ]);
    const turn = items[1];
    expect(turn.message.id).toBe(history[1].id);
    expect(turn.toolCalls.map((v) => [v.call.id, v.result?.content])).toEqual([
      ['a', 'A'],
      ['b', 'B'],
      ['c', 'C'],
      ['d', 'D'],
    ]);
    expect(turn.steps!.map((s) => s.toolCalls.length)).toEqual([2, 2, 0]);
    expect(replyText(turn.steps!)).toBe('Let me look.\n\nDone.');
    expect(replyUsage(turn.steps!)).toEqual({ promptTokens: 10, completionTokens: 2, cost: null });
  });
});
