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

/** One SSE stream: the call in a single chunk, its finish, and [DONE]. */
function wholeCall(args: string): string {
  const base = { id: 'chatcmpl-whole', object: 'chat.completion.chunk', created: 0, model: 'scripted' };
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const call = {
    index: 0,
    id: 'call_whole',
    type: 'function',
    function: { name: 'get_current_time', arguments: args },
  };
  return (
    chunk({ role: 'assistant', content: '' }, null) +
    chunk({ tool_calls: [call] }, null) +
    chunk({}, 'tool_calls') +
    'data: [DONE]\n\n'
  );
}

const callsStreamed = () => h.eventsOf('messages:streamed').filter((e) => e.toolCalls?.length);

describe('a streamed tool call', () => {
  it('is sent once, finished, when it arrives whole with the end of the reply', async () => {
    server.push({ raw: [wholeCall('{"timeZone":"UTC"}')] }, { text: 'It is noon.' });
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
    server.push(
      { toolCalls: [{ name: 'get_current_time', arguments: ['{"time', 'Zone":', '"UTC"}'] }], chunkDelayMs: 60 },
      { text: 'It is noon.' },
    );
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'What time is it?');

    const streamed = callsStreamed().map((e) => e.toolCalls?.[0]?.arguments ?? '');
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed[0].length).toBeLessThan('{"timeZone":"UTC"}'.length);
    for (const args of streamed) expect('{"timeZone":"UTC"}'.startsWith(args)).toBe(true);
  });
});
