// Stream quirks that already worked and must keep working (issue 12, section 1, point 12),
// each as raw bytes through the real `openai` SDK.
import { describe, expect, it } from 'vitest';
import { type ScriptedServer, type Turn } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import * as shapes from '../support/sseFixtures';

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

async function reply(...turns: Turn[]) {
  server.push(...turns);
  const conversation = await h.newConversation('Compat');
  const { status } = await h.sendAndWait(conversation.id, 'Hello');
  return { id: conversation.id, status, stored: h.messages(conversation.id) };
}

describe('replies that complete', () => {
  it.each<[string, Turn, string]>([
    ['Azure’s empty choices with filter annotations', shapes.azureFilterAnnotations, 'Hello from Azure.'],
    ['a usage-only final chunk', shapes.usageOnlyFinalChunk, 'Counted.'],
    ['OpenRouter processing comments', shapes.openRouterReasoning, 'There are three.'],
    ['no [DONE] at all', shapes.noDoneAtAll, 'Finished without a sentinel.'],
    ['CRLF line ends and `data:` without a space', shapes.crlfNoSpace, 'Line ends from Windows.'],
    [
      'JSON split across reads',
      shapes.jsonSplitAcrossReads('A reply cut into three reads.'),
      'A reply cut into three reads.',
    ],
    ['multi-byte characters split across reads', shapes.multiByteSplit('Grüße — 你好 🌍!'), 'Grüße — 你好 🌍!'],
  ])('%s', async (_, shape, text) => {
    const { status, stored } = await reply(shape);
    expect(status.error).toBeNull();
    expect(stored[1]).toMatchObject({ role: 'assistant', status: 'complete', content: text, error: null });
  });

  it('Ollama’s complete tool call with finish_reason "stop" runs and writes the plan', async () => {
    const { id, status } = await reply(shapes.ollamaCallWithStop, { text: 'Planned.' });
    expect(status.error).toBeNull();
    const { list } = await h.call('tasks:get', { conversationId: id });
    expect(list!.tasks.map((t) => t.title)).toEqual(shapes.PLAN);
  });

  it('429 with retry-after: the SDK waits as told, then the reply arrives', async () => {
    const { status, stored } = await reply(shapes.rateLimitedWithRetryAfter('0.3'), { text: 'After the wait.' });
    expect(status.error).toBeNull();
    expect(stored[1]).toMatchObject({ content: 'After the wait.', status: 'complete' });
    const [first, second] = server.streamRequests();
    // A lower bound only: the retry came no sooner than the server asked.
    expect(second.at - first.at).toBeGreaterThanOrEqual(280);
  });
});

describe('errors inside the stream', () => {
  it.each<[string, Turn, string, string]>([
    [
      'an error object mid-stream',
      shapes.midStreamErrorObject,
      'Upstream model overloaded, try again',
      'Starting the answer',
    ],
    ['an `event: error`', shapes.eventErrorStream, 'The provider returned error 500 (upstream)', 'Partial'],
  ])('%s: the server’s words reach the user, the partial text stays', async (_, shape, words, partial) => {
    const { status, stored } = await reply(shape);
    expect(status.error).toMatchObject({ kind: 'server', retryable: true });
    expect(status.error!.message).toContain(words);
    expect(stored[1]).toMatchObject({ status: 'error', content: partial, error: status.error!.message });
  });
});
