// How a tool call reaches the page while it streams: a call whose arguments arrive over
// several reads is shown growing; a call that arrives whole, with the end of the reply, in
// one read is sent once, finished, before its tool runs (not also as a streamed copy).
import { describe, expect, it } from 'vitest';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

const base = { id: 'chatcmpl-call', object: 'chat.completion.chunk', created: 0, model: 'scripted' };
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const START = chunk({ role: 'assistant', content: '' });
/** The call's first piece names it; the pieces after it only add to its arguments. */
const callPiece = (args: string, first: boolean) =>
  chunk({
    tool_calls: [
      first
        ? { index: 0, id: 'call_time', type: 'function', function: { name: 'get_current_time', arguments: args } }
        : { index: 0, function: { arguments: args } },
    ],
  });
const END = chunk({}, 'tool_calls') + 'data: [DONE]\n\n';

const callsStreamed = () => h.eventsOf('messages:streamed').filter((e) => e.toolCalls?.length);

describe('a streamed tool call', () => {
  it('is sent once, finished, when it arrives whole with the end of the reply', async () => {
    // One write: the call in a single chunk, its finish and [DONE].
    server.push({ raw: [START + callPiece('{"timeZone":"UTC"}', true) + END] }, { text: 'It is noon.' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'What time is it?');

    expect(callsStreamed()).toEqual([]);
    const calls = h
      .eventsOf('messages:changed')
      .filter((e) => e.message.role === 'assistant' && e.message.toolCalls?.length);
    expect(calls.map((e) => [e.message.status, e.message.toolCalls?.[0]?.arguments])).toEqual([
      ['complete', '{"timeZone":"UTC"}'],
    ]);
    // It ran, and the model was answered.
    expect(h.messages(conversation.id).map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['tool', 'complete'],
      ['assistant', 'complete'],
    ]);
  });

  it('is shown growing when its arguments arrive over several reads', async () => {
    // The rest of the call is written once the page has been sent its first piece.
    const firstShown = h.waitForEvent('messages:streamed', (e) => !!e.toolCalls?.length);
    server.push(
      { raw: [START + callPiece('{"time', true), { until: firstShown }, callPiece('Zone":"UTC"}', false) + END] },
      { text: 'It is noon.' },
    );
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'What time is it?');

    expect(callsStreamed().map((e) => e.toolCalls?.[0]?.arguments)).toEqual(['{"time']);
    expect(h.messages(conversation.id)[1].toolCalls?.[0]?.arguments).toBe('{"timeZone":"UTC"}');
  });
});
