// Stopping (mid-stream, mid-tool-call, mid-tool), regenerate, edit-and-resend, /clear
// and history repair: after each, the next request the server sees is valid.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/main/core/tools/toolTypes';
import { type ChatBody, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, chatCorePerTest, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

/** Every assistant tool call is answered by a tool message right after it, and no result is orphaned. */
function expectNoDanglingToolCalls(messages: ChatBody['messages']) {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') {
      const owner = messages.slice(0, i).findLast((x) => x.role !== 'tool');
      expect(owner?.tool_calls?.some((c) => c.id === m.tool_call_id)).toBe(true);
    }
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const results = [];
    for (let j = i + 1; j < messages.length && messages[j].role === 'tool'; j++) results.push(messages[j].tool_call_id);
    expect(results).toEqual(m.tool_calls.map((c) => c.id));
    for (const call of m.tool_calls) expect(() => JSON.parse(call.function.arguments)).not.toThrow();
  }
}

const slowText = (n: number) => ({ text: Array.from({ length: n }, (_, i) => `word${i} `), chunkDelayMs: 25 });

describe('stop', () => {
  it('mid-stream keeps the partial reply, marked stopped', async () => {
    server.push(slowText(200));
    const conversation = await h.newConversation('Stop me');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Write a lot' });
    await h.waitForEvent('messages:streamed', (e) => !!e.content && e.content.at + e.content.text.length > 10);
    const status = await h.call('chat:stop', { conversationId: conversation.id });
    expect(status).toEqual({ conversationId: conversation.id, running: false, error: null });

    const reply = h.messages(conversation.id)[1];
    expect(reply.status).toBe('stopped');
    expect(reply.content.startsWith('word0 word1')).toBe(true);
    expect(reply.content.length).toBeLessThan(200 * 6);

    server.push({ text: 'Fine.' });
    await h.sendAndWait(conversation.id, 'Thanks');
    const next = server.streamRequests()[1].body.messages.slice(1);
    expect(next).toEqual([
      { role: 'user', content: 'Write a lot' },
      { role: 'assistant', content: reply.content },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('while tool-call arguments stream answers every call with "cancelled by user"', async () => {
    server.push({
      text: 'Checking.',
      toolCalls: [
        { id: 'a', name: 'get_current_time', arguments: ['{"time', 'Zone":"UTC"}'] },
        { id: 'b', name: 'get_current_time', arguments: ['{"time', 'Zone"', ':"Asia/', 'Tokyo"}'] },
      ],
      chunkDelayMs: 60,
    });
    const conversation = await h.newConversation('Stop in a call');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Time?' });
    await h.waitForEvent('messages:streamed', (e) => (e.toolCalls?.length ?? 0) >= 2);
    await h.call('chat:stop', { conversationId: conversation.id });

    const stored = h.messages(conversation.id);
    expect(stored[1].status).toBe('stopped');
    expect(stored[1].toolCalls?.map((c) => c.id)).toEqual(['a', 'b']);
    expect(stored.slice(2).map((m) => [m.role, m.toolCallId, m.content])).toEqual([
      ['tool', 'a', 'cancelled by user'],
      ['tool', 'b', 'cancelled by user'],
    ]);

    server.push({ text: 'OK.' });
    await h.sendAndWait(conversation.id, 'Never mind');
    expectNoDanglingToolCalls(server.streamRequests()[1].body.messages);
  });

  it('while a tool runs cancels it and the calls after it', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let sawAbort = false;
    h.core.tools.register(
      defineTool({
        name: 'slow_search',
        description: 'Searches slowly',
        parameters: z.object({ query: z.string() }),
        handler: (_args, ctx) =>
          new Promise<string>(() => {
            ctx.signal.addEventListener('abort', () => (sawAbort = true));
            started();
            // Never resolves: the registry must not wait for a handler that ignores its signal.
          }),
      }),
    );
    server.push({
      toolCalls: [
        { id: 's1', name: 'slow_search', arguments: '{"query":"cats"}' },
        { id: 's2', name: 'get_current_time', arguments: '{}' },
      ],
    });
    const conversation = await h.newConversation('Stop a tool');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Search' });
    await running;
    const status = await h.call('chat:stop', { conversationId: conversation.id });
    expect(status.running).toBe(false);
    expect(sawAbort).toBe(true);
    const stored = h.messages(conversation.id);
    expect(stored.map((m) => [m.role, m.status, m.toolCallId, m.role === 'tool' ? m.content : null])).toEqual([
      ['user', 'complete', null, null],
      ['assistant', 'complete', null, null],
      ['tool', 'complete', 's1', 'cancelled by user'],
      ['tool', 'complete', 's2', 'cancelled by user'],
    ]);
    server.push({ text: 'Stopped.' });
    await h.sendAndWait(conversation.id, 'Go on');
    expectNoDanglingToolCalls(server.streamRequests()[1].body.messages);
  });

  it('with nothing running just reports the status', async () => {
    const conversation = await h.newConversation('Idle');
    expect(await h.call('chat:stop', { conversationId: conversation.id })).toEqual({
      conversationId: conversation.id,
      running: false,
      error: null,
    });
  });
});

describe('regenerate and edit', () => {
  it('regenerate replaces every message of the last reply', async () => {
    server.push(
      { toolCalls: [{ name: 'get_current_time', arguments: '{}' }] },
      { text: 'First try' },
      { text: 'Second try' },
    );
    const conversation = await h.newConversation('Regenerate');
    await h.sendAndWait(conversation.id, 'Tell me');
    const before = h.messages(conversation.id);
    const from = h.events.length;
    await h.call('chat:regenerate', { conversationId: conversation.id });
    await h.waitIdle(conversation.id, from);
    expect(h.eventsOf('messages:removed')).toEqual([{ conversationId: conversation.id, fromId: before[1].id }]);
    expect(h.messages(conversation.id).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Tell me'],
      ['assistant', 'Second try'],
    ]);
    expect(server.streamRequests()[2].body.messages.slice(1)).toEqual([{ role: 'user', content: 'Tell me' }]);
  });

  it('editLast replaces the last user message and what followed, runs edit hooks, and sends again', async () => {
    const edits: string[] = [];
    h.core.chat.onBeforeEdit((id) => edits.push(id));
    server.push({ text: 'Reply one' }, { text: 'Reply two' });
    const conversation = await h.newConversation('Edit');
    const { message: original } = await h.sendAndWait(conversation.id, 'Helo');
    const from = h.events.length;
    const edited = await h.call('chat:editLast', { conversationId: conversation.id, content: 'Hello' });
    await h.waitIdle(conversation.id, from);
    expect(edits).toEqual([conversation.id]);
    expect(edited).toMatchObject({ role: 'user', content: 'Hello' });
    expect(h.eventsOf('messages:removed')).toEqual([{ conversationId: conversation.id, fromId: original.id }]);
    expect(h.messages(conversation.id).map((m) => m.content)).toEqual(['Hello', 'Reply two']);
    expect(server.streamRequests()[1].body.messages.slice(1)).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('refuses edit, regenerate and retry while a reply runs', async () => {
    server.push(slowText(100));
    const conversation = await h.newConversation('Busy');
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'Go' });
    for (const error of [
      await h.callError('chat:editLast', { conversationId: conversation.id, content: 'x' }),
      await h.callError('chat:regenerate', { conversationId: conversation.id }),
      await h.callError('chat:retry', { conversationId: conversation.id }),
    ]) {
      expect(error.code).toBe('conflict');
    }
    await h.call('chat:stop', { conversationId: conversation.id });
    await h.waitIdle(conversation.id, from);
    expect(h.messages(conversation.id).map((m) => m.content)[0]).toBe('Go');
  });

  it('retry after a normal reply says there is nothing to retry', async () => {
    server.push({ text: 'Done' });
    const conversation = await h.newConversation('Nothing to retry');
    await h.sendAndWait(conversation.id, 'Hi');
    const error = await h.callError('chat:retry', { conversationId: conversation.id });
    expect(error).toMatchObject({ code: 'conflict' });
    expect(error.message).toMatch(/nothing to retry/);
  });
});

describe('/clear', () => {
  it('runs the clear hooks and stores a note instead of asking the model', async () => {
    const cleared: string[] = [];
    h.core.chat.onClear(({ conversationId, said }) => {
      cleared.push(conversationId);
      said.push('The task list was closed.');
    });
    const conversation = await h.newConversation('Clear');
    const note = await h.call('messages:send', { conversationId: conversation.id, content: ' /clear ' });
    expect(note).toMatchObject({ role: 'system', origin: 'system', content: 'The task list was closed.' });
    expect(cleared).toEqual([conversation.id]);
    expect(server.chatRequests()).toHaveLength(0);
    expect(h.eventsOf('chat:status')).toHaveLength(0);
  });

  it('says so when nothing was cleared', async () => {
    const conversation = await h.newConversation('Clear nothing');
    const note = await h.call('messages:send', { conversationId: conversation.id, content: '/clear' });
    expect(note.content).toBe('Nothing to clear.');
  });
});

describe('history repair', () => {
  it('never sends an unclosed tool call, even from a history left by a crash', async () => {
    const conversation = await h.newConversation('Repair');
    const { messages } = h.core;
    messages.insert({ conversationId: conversation.id, role: 'user', content: 'Before the crash' });
    messages.insert({
      conversationId: conversation.id,
      role: 'assistant',
      content: '',
      status: 'interrupted',
      toolCalls: [
        { id: 'done', name: 'get_current_time', arguments: '{}' },
        { id: 'lost', name: 'get_current_time', arguments: '{"timeZ' },
      ],
    });
    messages.insert({
      conversationId: conversation.id,
      role: 'tool',
      content: 'noon',
      toolCallId: 'done',
      toolName: 'get_current_time',
    });
    messages.insert({
      conversationId: conversation.id,
      role: 'tool',
      content: 'orphan',
      toolCallId: 'nobody',
      toolName: 'x',
    });
    server.push({ text: 'Recovered.' });
    await h.sendAndWait(conversation.id, 'After the crash');
    const sent = server.streamRequests()[0].body.messages;
    expectNoDanglingToolCalls(sent);
    expect(sent.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['done', 'noon'],
      // The reply was cut off before it was complete: its calls never ran.
      ['lost', 'No result: the reply was cut off before this call could run; it did not run.'],
    ]);
  });
});

describe('shutdown mid-reply', () => {
  it('saves the partial reply as interrupted, and after a restart it can be retried', async () => {
    server.push(slowText(300));
    const conversation = await h.newConversation('Shutdown');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Long story please' });
    await h.waitForEvent('messages:streamed', (e) => !!e.content && e.content.at + e.content.text.length > 20);
    const dataDir = h.dataDir;
    h.core.close();

    const again = startChatCore(server, { dataDir });
    try {
      const stored = again.messages(conversation.id);
      expect(stored[0]).toMatchObject({ role: 'user', content: 'Long story please', status: 'complete' });
      expect(stored[1].status).toBe('interrupted');
      expect(stored[1].content.startsWith('word0 ')).toBe(true);
      const status = await again.call('chat:status', { conversationId: conversation.id });
      expect(status).toMatchObject({ running: false, error: { retryable: true } });

      server.push({ text: 'The whole story.' });
      const from = again.events.length;
      await again.call('chat:retry', { conversationId: conversation.id });
      await again.waitIdle(conversation.id, from);
      expect(again.messages(conversation.id).map((m) => [m.content, m.status])).toEqual([
        ['Long story please', 'complete'],
        ['The whole story.', 'complete'],
      ]);
    } finally {
      again.core.close();
    }
  });
});
