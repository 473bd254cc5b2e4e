// Every way a request can fail: the user's message stays, the failed reply is stored with
// its reason, the status carries the right ChatError, and Retry replaces the failed reply.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, times, type ScriptedServer, type Turn } from '../support/scriptedServer';
import { startChatCore, TEST_MODEL, type ChatHarness, type HarnessOptions } from '../support/chatHarness';
import type { ChatError } from '../../src/shared/domain';

let server: ScriptedServer | null = null;
let h: ChatHarness | null = null;

afterEach(async () => {
  h?.close();
  await server?.close();
  h = null;
  server = null;
});

async function setup(script: Turn[], options: HarnessOptions = {}) {
  server = await startScriptedServer({ script });
  h = startChatCore(server, options);
  return { server, h };
}

async function failOnce(script: Turn[], options: HarnessOptions = {}) {
  const { h } = await setup(script, options);
  const conversation = await h.newConversation('Errors');
  const { status } = await h.sendAndWait(conversation.id, 'Please answer');
  const stored = h.messages(conversation.id);
  expect(stored[0]).toMatchObject({ role: 'user', content: 'Please answer', status: 'complete' });
  expect(status.running).toBe(false);
  return { conversationId: conversation.id, error: status.error as ChatError, stored };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('HTTP errors', () => {
  it('401: the key was rejected, with a way to Settings, not retryable', async () => {
    const { error, stored } = await failOnce([{ status: 401 }]);
    expect(error).toMatchObject({ kind: 'auth', retryable: false, settings: true });
    expect(error.message).toMatch(/^The API key was rejected/);
    expect(stored[1]).toMatchObject({ role: 'assistant', status: 'error', content: '', error: error.message });
    expect(server!.chatRequests()).toHaveLength(1);
  });

  it('404: names the model', async () => {
    const { error } = await failOnce([{ status: 404 }]);
    expect(error).toMatchObject({ kind: 'model', retryable: false, settings: true });
    expect(error.message).toContain(`"${TEST_MODEL}"`);
  });

  it('429: the SDK retries twice, then a retryable rate error', async () => {
    const { error } = await failOnce(times(3, { status: 429 }));
    expect(error).toMatchObject({ kind: 'rate', retryable: true, settings: false });
    expect(server!.streamRequests()).toHaveLength(3);
  });

  it('429 once: the SDK retry succeeds and nobody sees an error', async () => {
    const { error, stored } = await failOnce([{ status: 429 }, { text: 'Made it.' }]);
    expect(error).toBeNull();
    expect(stored[1]).toMatchObject({ content: 'Made it.', status: 'complete' });
  });

  it('500: a retryable server error after the retries', async () => {
    const { error } = await failOnce(times(3, { status: 500 }));
    expect(error).toMatchObject({ kind: 'server', retryable: true });
    expect(error.message).toMatch(/500/);
    expect(server!.streamRequests()).toHaveLength(3);
  });

  it('400: the server says why, and the text reaches the user', async () => {
    const { error } = await failOnce([{ status: 400, errorMessage: 'temperature is not supported by this model' }]);
    expect(error.kind).toBe('unknown');
    expect(error.message).toContain('temperature is not supported by this model');
  });
});

describe('connection errors', () => {
  it('network unreachable: a clear message naming the server', async () => {
    const port = await closedPort();
    server = await startScriptedServer();
    h = startChatCore(null, {
      env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: 'k', STEPWISE_MODEL: 'm' },
      chat: { maxRetries: 0 },
    });
    const conversation = await h.newConversation('Offline');
    const { status } = await h.sendAndWait(conversation.id, 'Anyone there?');
    expect(status.error).toMatchObject({ kind: 'network', retryable: true });
    expect(status.error!.message).toContain(`127.0.0.1:${port}`);
    expect(h.messages(conversation.id)[0].content).toBe('Anyone there?');
  });

  it('no answer at all: a timeout after the retries', async () => {
    const { error, stored } = await failOnce(times(3, { hang: true }), { chat: { requestTimeoutMs: 200 } });
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(stored[1].status).toBe('error');
    expect(server!.streamRequests()).toHaveLength(3);
  });

  it('a stream that goes silent mid-way: timeout, partial text kept as interrupted', async () => {
    const { error, stored } = await failOnce([{ text: ['Part one, ', 'part two, ', 'part three'], hangAfter: 3 }], {
      chat: { idleTimeoutMs: 300 },
    });
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(stored[1]).toMatchObject({ status: 'interrupted', content: 'Part one, part two, ', error: error.message });
  });

  it('a connection dropped mid-stream: partial text kept, Retry replaces it', async () => {
    const { conversationId, error, stored } = await failOnce([
      { text: ['The answer ', 'is coming ', 'but'], dropAfter: 3 },
      { text: 'The full answer.' },
    ]);
    expect(error).toMatchObject({ kind: 'dropped', retryable: true });
    expect(stored[1]).toMatchObject({ status: 'interrupted', content: 'The answer is coming ' });

    const from = h!.events.length;
    await h!.call('chat:retry', { conversationId });
    const after = await h!.waitIdle(conversationId, from);
    expect(after.error).toBeNull();
    expect(h!.eventsOf('messages:removed').at(-1)).toEqual({ conversationId, fromId: stored[1].id });
    expect(h!.messages(conversationId).map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Please answer', 'complete'],
      ['assistant', 'The full answer.', 'complete'],
    ]);
    // The failed partial reply is not part of the retried request.
    expect(server!.streamRequests().at(-1)!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Please answer' },
    ]);
  });

  it('retry after a 500 replaces the empty failed reply', async () => {
    const { conversationId } = await failOnce([...times(3, { status: 500 }), { text: 'Back again.' }]);
    const from = h!.events.length;
    const status = await h!.call('chat:retry', { conversationId });
    expect(status.running).toBe(true);
    await h!.waitIdle(conversationId, from);
    expect(h!.messages(conversationId).map((m) => m.content)).toEqual(['Please answer', 'Back again.']);
  });
});

describe('configuration errors', () => {
  it('OpenAI without a key: asks for one in Settings, sends nothing', async () => {
    h = startChatCore(null, { env: {} });
    const conversation = await h.newConversation('No key');
    const { status } = await h.sendAndWait(conversation.id, 'Hello?');
    expect(status.error).toMatchObject({ kind: 'config', settings: true });
    expect(status.error!.message).toMatch(/No API key is set/);
    expect(h.messages(conversation.id).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a base URL that is not http(s)', async () => {
    h = startChatCore(null, { env: {} });
    await h.call('providers:save', {
      profile: { id: 'default', name: 'Custom', preset: 'custom', baseUrl: 'ftp://example.test/v1' },
    });
    const conversation = await h.newConversation('Bad URL');
    const { status } = await h.sendAndWait(conversation.id, 'Hello?');
    expect(status.error).toMatchObject({ kind: 'config', settings: true });
    expect(status.error!.message).toMatch(/http:\/\/ or https:\/\//);
  });
});

describe('models:list', () => {
  it('lists the server models, sorted', async () => {
    server = await startScriptedServer({ models: ['zeta', 'alpha', 'mid'] });
    h = startChatCore(server);
    expect(await h.call('models:list', {})).toEqual({ models: ['alpha', 'mid', 'zeta'] });
  });

  it('explains when the server has no model list', async () => {
    server = await startScriptedServer({ models: 404 });
    h = startChatCore(server);
    const error = await h.callError('models:list', {});
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(/does not offer a model list/);
  });

  it('explains when the list is empty', async () => {
    server = await startScriptedServer({ models: [] });
    h = startChatCore(server);
    expect((await h.callError('models:list', {})).message).toMatch(/lists no models/);
  });

  it('reports a rejected key', async () => {
    server = await startScriptedServer({ models: 401 });
    h = startChatCore(server);
    expect((await h.callError('models:list', {})).message).toMatch(/The API key was rejected/);
  });
});
