// The idle warm-up builds the request a send would make in the conversation last written in
// (llm/turnRequest.ts), so the first send after a restart finds that code compiled and the
// history read. It must send nothing, store nothing, push nothing, and leave the next
// send's request as it would have been.
import { expect, it } from 'vitest';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

it('builds the next request without sending, storing or pushing anything', async () => {
  server.push({ text: 'First answer.' }, { text: 'A title' }, { text: 'Second answer.' });
  const { id } = await h.newConversation();
  await h.sendAndWait(id, 'First question');
  const requests = server.streamRequests().length;
  const stored = h.messages(id);
  const pushed = h.events.length;

  h.core.chat.warmUpTurn(id);

  expect(server.streamRequests()).toHaveLength(requests);
  expect(h.messages(id)).toEqual(stored);
  expect(h.events).toHaveLength(pushed);

  await h.sendAndWait(id, 'Second question');
  const [first, second] = server.streamRequests();
  // The same system prompt, and the history as stored: nothing was consumed by the warm-up.
  expect(second.body.messages[0]).toEqual(first.body.messages[0]);
  expect(second.body.messages.slice(1).map((m: { content?: unknown }) => m.content)).toEqual([
    'First question',
    'First answer.',
    'Second question',
  ]);
});
