// Stream shapes real servers send (issue 12, section 1), as raw bytes through the real
// `openai` SDK: each completes the turn — writing the task list when it carries a
// manage_todo_list call — or ends with a true, specific message.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer, type Turn } from '../support/scriptedServer';
import { startChatCore, type ChatHarness, type HarnessOptions } from '../support/chatHarness';
import * as shapes from '../support/sseFixtures';
import { CUT_OFF_RESULT, FILTER_NOTE, LENGTH_IN_CALL_NOTE } from '../../src/main/core/llm/turnOutcome';

let server: ScriptedServer | null = null;
let h: ChatHarness | null = null;

afterEach(async () => {
  h?.close();
  await server?.close();
  h = null;
  server = null;
});

async function run(script: Turn[], options: HarnessOptions = {}, content = 'Plan my trip, please') {
  server = await startScriptedServer({ script });
  h = startChatCore(server, options);
  const conversation = await h.newConversation('Shapes');
  const { status } = await h.sendAndWait(conversation.id, content);
  const stored = h.messages(conversation.id);
  return { id: conversation.id, status, stored, h, server };
}

async function planTitles(id: string): Promise<string[]> {
  const { list } = await h!.call('tasks:get', { conversationId: id });
  return list?.tasks.map((t) => t.title) ?? [];
}

const toolRows = (id: string) => h!.messages(id).filter((m) => m.role === 'tool');

describe('tool calls', () => {
  it.each([
    ['without an index (Gemini)', shapes.parallelCallsWithoutIndex],
    ['all at index 0 with new ids (older Ollama)', shapes.parallelCallsAllIndexZero],
  ])('parallel calls %s stay two calls, and the plan is written', async (_, shape) => {
    const { id, status, stored } = await run([shape, { text: 'Planned.' }]);
    expect(status.error).toBeNull();
    const reply = stored.find((m) => m.role === 'assistant')!;
    expect(reply.toolCalls!.map((c) => [c.name, c.arguments])).toEqual([
      ['manage_todo_list', shapes.TODO_ARGS],
      ['get_current_time', shapes.TIME_ARGS],
    ]);
    expect(await planTitles(id)).toEqual(shapes.PLAN);
    expect(toolRows(id).map((m) => m.toolName)).toEqual(['manage_todo_list', 'get_current_time']);
    expect(toolRows(id)[1].content).not.toMatch(/^Error/);
  });

  it('arguments resent cumulatively are not concatenated', async () => {
    const { id, status, stored } = await run([shapes.cumulativeArguments, { text: 'Planned.' }]);
    expect(status.error).toBeNull();
    expect(stored[1].toolCalls).toEqual([{ id: 'call_cum', name: 'manage_todo_list', arguments: shapes.TODO_ARGS }]);
    expect(await planTitles(id)).toEqual(shapes.PLAN);
  });

  it('finish_reason null on every chunk, then [DONE]: a normal end, the calls run', async () => {
    const { id, status, stored } = await run([shapes.noFinishReasonThenDone, { text: 'Planned.' }]);
    expect(status.error).toBeNull();
    expect(stored[1]).toMatchObject({ status: 'complete', content: 'On it.', error: null });
    expect(await planTitles(id)).toEqual(shapes.PLAN);
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: 'Planned.' });
  });

  it('Ollama: a complete call with finish_reason "stop" still runs', async () => {
    const { id, status } = await run([shapes.ollamaCallWithStop, { text: 'Planned.' }]);
    expect(status.error).toBeNull();
    expect(await planTitles(id)).toEqual(shapes.PLAN);
  });

  it('"length" inside the arguments: the model hears it was cut off (not bad JSON), the user sees the note', async () => {
    const { id, status, stored } = await run([
      shapes.lengthInsideArguments,
      shapes.cumulativeArguments,
      { text: 'Planned.' },
    ]);
    expect(status.error).toBeNull();
    expect(stored[1]).toMatchObject({ status: 'complete', content: 'Writing the plan.', error: LENGTH_IN_CALL_NOTE });
    const [cutOff] = toolRows(id);
    expect(cutOff.content).toBe(CUT_OFF_RESULT);
    expect(cutOff.content).not.toMatch(/invalid JSON/i);
    // The model was asked again with that result, and its second try wrote the plan.
    const second = server!.streamRequests()[1].body.messages;
    expect(second.find((m) => m.role === 'tool')).toMatchObject({ tool_call_id: 'call_len', content: CUT_OFF_RESULT });
    expect(await planTitles(id)).toEqual(shapes.PLAN);
  });
});

describe('how a reply ends', () => {
  it('a JSON body answered to a stream request is the complete reply', async () => {
    const { id, status, stored } = await run([shapes.jsonBodyForStream, { text: 'Planned.' }]);
    expect(status.error).toBeNull();
    expect(stored[1]).toMatchObject({ status: 'complete', content: 'Here is the plan.' });
    expect(await planTitles(id)).toEqual(shapes.PLAN);
  });

  it('content_filter keeps the partial text with a note naming the provider’s filter', async () => {
    const { status, stored } = await run([shapes.contentFilterStop]);
    expect(status.error).toBeNull();
    expect(stored[1]).toMatchObject({
      status: 'complete',
      content: 'Here is how to pick the lock',
      error: FILTER_NOTE,
    });
  });

  it('an error that repeats identically on Retry: the second time, the server’s message and Open Settings', async () => {
    const missing = 'messages[2]: missing field `reasoning_content`';
    const { id, status } = await run([
      { status: 400, errorMessage: missing },
      { status: 400, errorMessage: missing },
    ]);
    expect(status.error).toMatchObject({ kind: 'unknown', retryable: true, settings: false });
    const from = h!.events.length;
    await h!.call('chat:retry', { conversationId: id });
    const again = await h!.waitIdle(id, from);
    expect(again.error).toMatchObject({ retryable: false, settings: true });
    expect(again.error!.message).toContain(missing);
    expect(again.error!.message).toMatch(/same error/);
    // chat:status keeps saying it until something changes.
    expect((await h!.call('chat:status', { conversationId: id })).error).toEqual(again.error);
  });

  it('a different error on Retry is offered Retry again', async () => {
    const { id } = await run([
      { status: 400, errorMessage: 'first problem' },
      { status: 400, errorMessage: 'second problem' },
    ]);
    const from = h!.events.length;
    await h!.call('chat:retry', { conversationId: id });
    expect((await h!.waitIdle(id, from)).error).toMatchObject({ retryable: true, settings: false });
  });
});

describe('keep-alive comments and the idle timeout', () => {
  it('comments while the model thinks reset the idle timer', async () => {
    // 15 comments 100 ms apart: 1.5 s with no event, over the 1 s idle limit. Each gap is a
    // tenth of the limit: at 300 ms a busy machine's late timer once ended the reply.
    const { status, stored } = await run([shapes.keepAliveThenAnswer(15, 100, 'Worth the wait.')], {
      chat: { idleTimeoutMs: 1000 },
    });
    expect(status.error).toBeNull();
    expect(stored[1]).toMatchObject({ status: 'complete', content: 'Worth the wait.' });
  });

  it('silence after nothing arrived: the timeout does not claim a partial reply', async () => {
    const { status, stored } = await run([{ raw: [': keep-alive\n\n'], rawEnd: 'hang' }], {
      chat: { idleTimeoutMs: 300 },
    });
    expect(status.error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(status.error!.message).toBe(
      'The server stopped sending the reply (nothing for 300 ms). Nothing of the reply had arrived.',
    );
    expect(stored[1]).toMatchObject({ status: 'error', content: '' });
  });

  it('silence after some thinking: says the thinking was kept', async () => {
    const { status, stored } = await run(
      [{ raw: [shapes.chunk({ role: 'assistant', reasoning_content: 'Let me see…' })], rawEnd: 'hang' }],
      { chat: { idleTimeoutMs: 300 } },
    );
    expect(status.error!.message).toMatch(/thinking so far was kept; no answer had arrived\.$/);
    expect(stored[1]).toMatchObject({ status: 'interrupted', content: '', reasoning: { text: 'Let me see…' } });
  });

  it('silence after some text: the partial reply was kept, and it was', async () => {
    const { status, stored } = await run(
      [{ raw: [shapes.chunk({ role: 'assistant', content: 'Half an ans' })], rawEnd: 'hang' }],
      {
        chat: { idleTimeoutMs: 300 },
      },
    );
    expect(status.error!.message).toMatch(/The partial reply was kept\.$/);
    expect(stored[1]).toMatchObject({ status: 'interrupted', content: 'Half an ans' });
  });

  it('a body that ends cleanly with neither a finish reason nor [DONE] says so', async () => {
    const { status, stored } = await run([{ raw: [shapes.chunk({ role: 'assistant', content: 'Cut' })] }]);
    expect(status.error).toMatchObject({ kind: 'dropped', retryable: true });
    expect(status.error!.message).toMatch(/closed the stream before the reply finished.*partial reply was kept/);
    expect(stored[1]).toMatchObject({ status: 'interrupted', content: 'Cut' });
  });
});
