// Reading a ChatGPT conversation's tree: linear in its versions (one message with 50,000
// replies reads in well under the test's 5 s limit; the old sort took minutes), children in
// ChatGPT's order, and a loop of messages that hangs off nothing skips the conversation
// with a reason instead of vanishing.
import { describe, expect, it } from 'vitest';
import { readChatGptExport } from '../../src/main/core/export/chatgptImport';

const node = (id: string, parent: string | null, children: string[], role?: string, text?: string) => ({
  id,
  parent,
  children,
  message: role
    ? { id, author: { role }, content: { content_type: 'text', parts: [text ?? id] }, create_time: 1_700_000_000 }
    : null,
});

describe('ChatGPT tree', () => {
  it('reads one message with 50,000 replies in ChatGPT order', async () => {
    const replies = Array.from({ length: 50_000 }, (_, i) => `r${i}`);
    // Listed in the mapping newest first, so the order must come from `children`.
    const mapping: Record<string, unknown> = {
      root: node('root', null, ['q']),
      q: node('q', 'root', replies, 'user', 'Question'),
    };
    for (const id of [...replies].reverse()) mapping[id] = node(id, 'q', [], 'assistant', `Reply ${id}`);
    const { conversations, skipped } = await readChatGptExport(
      [{ title: 'Many versions', mapping, current_node: 'r49999' }],
      0,
    );
    expect(skipped).toEqual([]);
    const messages = conversations[0]!.messages;
    expect(messages).toHaveLength(50_001);
    expect(messages.slice(1, 4).map((m) => m.content)).toEqual(['Reply r0', 'Reply r1', 'Reply r2']);
    expect(messages.filter((m) => m.shown).map((m) => m.content)).toEqual(['Question', 'Reply r49999']);
  });

  it('skips a conversation with a loop not connected to its first message, saying so', async () => {
    const mapping = {
      root: node('root', null, ['q']),
      q: node('q', 'root', [], 'user', 'Question'),
      a: node('a', 'b', ['b'], 'user', 'In a loop'),
      b: node('b', 'a', ['a'], 'assistant', 'Also in it'),
    };
    const { conversations, skipped } = await readChatGptExport(
      [{ title: 'Hidden loop', mapping, current_node: 'q' }],
      0,
    );
    expect(conversations).toEqual([]);
    expect(skipped).toEqual([
      { title: 'Hidden loop', reason: 'its message tree has a loop (2 messages that lead back to themselves)' },
    ]);
  });
});
