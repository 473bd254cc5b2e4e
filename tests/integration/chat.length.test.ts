// A reply the model's output limit cut short is kept and says so.
import { expect, it } from 'vitest';
import { LENGTH_NOTE } from '../../src/main/core/llm/agentLoop';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

it('keeps a reply cut off by the output limit, with a note, and a normal reply has none', async () => {
  server.push({ text: 'A long answer that stops mid-', finishReason: 'length' }, { text: 'Short and complete.' });
  const conversation = await h.newConversation('Length');
  const first = await h.sendAndWait(conversation.id, 'Tell me everything');
  expect(first.status.error).toBeNull();
  const cut = h.messages(conversation.id).at(-1)!;
  expect(cut).toMatchObject({
    role: 'assistant',
    status: 'complete',
    content: 'A long answer that stops mid-',
    error: LENGTH_NOTE,
  });

  await h.sendAndWait(conversation.id, 'Shorter, please');
  expect(h.messages(conversation.id).at(-1)).toMatchObject({ content: 'Short and complete.', error: null });
});
