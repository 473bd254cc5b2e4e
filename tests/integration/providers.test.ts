// Provider profiles and models through the real core and the openai SDK against scripted
// servers: a conversation's model decides where its requests go, a saved key follows
// only its server, usage is asked for (and dropped per profile when a server rejects it),
// and the context window is counted in tokens: `/compact` by hand, and a clear error when
// not even the newest message fits.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, TEST_KEY, TEST_MODEL, type ChatHarness } from '../support/chatHarness';

let servers: ScriptedServer[] = [];
let h: ChatHarness | null = null;

async function server(options: Parameters<typeof startScriptedServer>[0] = {}) {
  const s = await startScriptedServer(options);
  servers.push(s);
  return s;
}

afterEach(async () => {
  h?.close();
  h = null;
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function addProfile(harness: ChatHarness, name: string, baseUrl: string, defaultModel = 'model-b') {
  const before = new Set((await harness.call('settings:get', {})).profiles.map((p) => p.id));
  const view = await harness.call('providers:save', { profile: { name, preset: 'custom', baseUrl, defaultModel } });
  return view.profiles.find((p) => !before.has(p.id))!;
}

describe('a model per conversation', () => {
  it('sends each conversation to its own profile and model; new conversations take the last choice', async () => {
    const a = await server();
    const b = await server();
    h = startChatCore(a);
    const second = await addProfile(h, 'Second', b.baseUrl);
    const first = await h.newConversation('On A');
    expect(first.model).toEqual({ profileId: 'env', model: TEST_MODEL });

    const other = await h.newConversation('On B');
    const chosen = await h.call('conversations:setModel', {
      id: other.id,
      model: { profileId: second.id, model: 'model-b2' },
    });
    expect(chosen.model).toEqual({ profileId: second.id, model: 'model-b2' });
    await h.sendAndWait(other.id, 'Hello B');
    await h.sendAndWait(first.id, 'Hello A');
    expect(b.streamRequests().map((r) => r.body.model)).toEqual(['model-b2']);
    expect(a.streamRequests().map((r) => r.body.model)).toEqual([TEST_MODEL]);
    // The reply remembers which model wrote it.
    expect(h.messages(other.id).at(-1)).toMatchObject({ role: 'assistant', model: 'model-b2' });

    const third = await h.newConversation('Next');
    expect(third.model).toEqual({ profileId: second.id, model: 'model-b2' });
    const unknown = await h.callError('conversations:setModel', {
      id: third.id,
      model: { profileId: 'nope', model: 'x' },
    });
    expect(unknown.code).toBe('not_found');
  });

  it("workers and the Autopilot assessor use the conversation's model unless Settings gives them their own", async () => {
    const a = await server();
    const b = await server();
    h = startChatCore(a);
    const second = await addProfile(h, 'Second', b.baseUrl);
    const conversation = await h.newConversation();
    for (const role of ['main', 'worker', 'assessor'] as const) {
      expect(h.core.providers.forConversation(conversation.id, role)).toMatchObject({
        profileId: 'env',
        model: TEST_MODEL,
      });
    }
    await h.call('settings:update', {
      patch: {
        workerModel: { profileId: second.id, model: 'worker-m' },
        assessorModel: { profileId: second.id, model: 'judge-m' },
      },
    });
    expect(h.core.providers.forConversation(conversation.id, 'main')).toMatchObject({
      profileId: 'env',
      model: TEST_MODEL,
    });
    expect(h.core.providers.forConversation(conversation.id, 'worker')).toMatchObject({
      profileId: second.id,
      model: 'worker-m',
      baseUrl: b.baseUrl,
    });
    expect(h.core.providers.forConversation(conversation.id, 'assessor')).toMatchObject({
      profileId: second.id,
      model: 'judge-m',
    });
    // A worker's loop (any agent id but main) asks the worker model.
    const outcome = await h.core.chat.run(conversation.id, 'worker-1');
    expect(outcome.kind).toBe('complete');
    expect(b.streamRequests().map((r) => r.body.model)).toEqual(['worker-m']);
    // Deleting the profile puts them back on the conversation's model.
    await h.call('providers:delete', { id: second.id });
    expect((await h.call('settings:get', {})).workerModel).toBeNull();
  });

  it('the Environment profile names its variable when a field it locks is wrong', async () => {
    h = startChatCore(null, { env: { OPENAI_BASE_URL: 'ftp://example.test/v1', STEPWISE_MODEL: 'm' } });
    const conversation = await h.newConversation();
    const { status } = await h.sendAndWait(conversation.id, 'Hello?');
    expect(status.error).toMatchObject({ kind: 'config', settings: true });
    expect(status.error!.message).toMatch(/OPENAI_BASE_URL environment variable/);
  });
});

describe('the model new conversations start with', () => {
  it('is the first profile that can be used, not the OpenAI preset stored without a key (issue 26)', async () => {
    const a = await server();
    h = startChatCore(null, { env: {} });
    expect((await h.call('settings:get', {})).defaultModel).toEqual({ profileId: 'default', model: 'gpt-4o-mini' });
    const custom = await addProfile(h, 'Local', a.baseUrl, 'local-model');
    expect((await h.call('settings:get', {})).defaultModel).toEqual({ profileId: custom.id, model: 'local-model' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'Hello');
    expect(a.streamRequests()).toHaveLength(1);
  });
});

describe('a saved key follows only its server', () => {
  it('holds the key back from a changed base URL until the user confirms, then sends it there', async () => {
    const a = await server();
    const b = await server();
    h = startChatCore(null, { env: {} });
    await h.call('providers:save', {
      profile: { id: 'default', name: 'Mine', preset: 'custom', baseUrl: a.baseUrl, defaultModel: 'm' },
    });
    await h.call('providers:setKey', { id: 'default', key: TEST_KEY });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'to A');
    expect(a.streamRequests()[0].headers.authorization).toBe(`Bearer ${TEST_KEY}`);

    const moved = await h.call('providers:save', {
      profile: { id: 'default', name: 'Mine', preset: 'custom', baseUrl: b.baseUrl },
    });
    expect(moved.profiles[0]).toMatchObject({ key: 'held', keyServer: a.baseUrl });
    const { status } = await h.sendAndWait(conversation.id, 'to B?');
    expect(status.error).toMatchObject({ kind: 'config', settings: true });
    expect(status.error!.message).toContain(`was saved for 127.0.0.1:${a.port}, not 127.0.0.1:${b.port}`);
    expect(b.requests).toHaveLength(0);

    const confirmed = await h.call('providers:confirmKey', { id: 'default' });
    expect(confirmed.profiles[0]).toMatchObject({ key: 'saved', keyServer: null });
    await h.sendAndWait(conversation.id, 'to B');
    expect(b.streamRequests()[0].headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(JSON.stringify(confirmed)).not.toContain(TEST_KEY);
  });

  it('a key entered for the new address replaces the held one', async () => {
    const b = await server();
    h = startChatCore(null, { env: {} });
    await h.call('providers:setKey', { id: 'default', key: 'sk-for-openai' });
    await h.call('providers:save', {
      profile: { id: 'default', name: 'Mine', preset: 'custom', baseUrl: b.baseUrl, defaultModel: 'm' },
    });
    const view = await h.call('providers:setKey', { id: 'default', key: 'sk-for-b' });
    expect(view.profiles[0]).toMatchObject({ key: 'saved' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'hi');
    expect(b.streamRequests()[0].headers.authorization).toBe('Bearer sk-for-b');
  });
});

describe('token usage', () => {
  it('asks for usage, stores it under the reply and prices it when prices are set', async () => {
    const a = await server({ script: [{ text: 'Priced.', usage: { prompt_tokens: 1000, completion_tokens: 500 } }] });
    h = startChatCore(a);
    await h.call('providers:save', {
      profile: {
        id: 'env',
        name: 'Environment',
        preset: 'custom',
        baseUrl: '',
        modelOptions: { [TEST_MODEL]: { inputPrice: 2, outputPrice: 10 } },
      },
    });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'How much?');
    expect(a.streamRequests()[0].body.stream_options).toEqual({ include_usage: true });
    expect(h.messages(conversation.id).at(-1)!.usage).toEqual({
      promptTokens: 1000,
      completionTokens: 500,
      cost: 0.007,
    });
    // The running total counts every reply (here one, plus nothing from the title request).
    expect(await h.call('conversations:usage', { id: conversation.id })).toEqual({
      promptTokens: 1000,
      completionTokens: 500,
      cost: 0.007,
    });
  });

  it('retries without stream_options when a server rejects it, and stops asking that profile', async () => {
    const a = await server({ rejectStreamOptions: true });
    h = startChatCore(a);
    const conversation = await h.newConversation();
    const { status } = await h.sendAndWait(conversation.id, 'First');
    expect(status.error).toBeNull();
    expect(a.streamRequests().map((r) => r.body.stream_options ?? null)).toEqual([{ include_usage: true }, null]);
    expect(h.messages(conversation.id).at(-1)).toMatchObject({ content: 'OK', usage: null });
    await h.sendAndWait(conversation.id, 'Second');
    expect(a.streamRequests().at(-1)!.body.stream_options).toBeUndefined();
    expect((await h.call('settings:get', {})).profiles.find((p) => p.id === 'env')!.streamUsage).toBe(false);
  });
});

describe('context window', () => {
  it('/compact summarizes the older turns into a note; the next request sends the summary instead', async () => {
    const a = await server();
    a.setScript((request) => (request.body.stream ? { text: 'Answer.' } : { text: 'SUMMARY of the start.' }));
    h = startChatCore(a);
    const conversation = await h.newConversation('Long');
    await h.sendAndWait(conversation.id, 'First question');
    await h.sendAndWait(conversation.id, 'Second question');
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: '/compact' });
    await h.waitIdle(conversation.id, from);
    const summary = h.messages(conversation.id).find((m) => m.summaryThrough !== null)!;
    expect(summary).toMatchObject({ role: 'system', content: 'SUMMARY of the start.' });
    const summarized = a
      .chatRequests()
      .filter((r) => !r.body.stream)
      .at(-1)!.body;
    expect(String(summarized.messages[1].content)).toContain('User: First question');
    expect(String(summarized.messages[1].content)).not.toContain('Second question');

    await h.sendAndWait(conversation.id, 'Third question');
    const next = a.streamRequests().at(-1)!.body;
    expect(String(next.messages[0].content)).toContain('SUMMARY of the start.');
    expect(next.messages.map((m) => m.content)).toEqual([
      expect.any(String),
      'Second question',
      'Answer.',
      'Third question',
    ]);
    // Nothing was deleted.
    expect(
      h
        .messages(conversation.id)
        .filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['First question', 'Second question', 'Third question']);
  });

  it('a conversation whose newest message cannot fit gets a clear error and sends nothing', async () => {
    const a = await server();
    h = startChatCore(a);
    await h.call('providers:save', {
      profile: {
        id: 'env',
        name: 'Environment',
        preset: 'custom',
        baseUrl: '',
        modelOptions: { [TEST_MODEL]: { contextWindow: 8000 } },
      },
    });
    const conversation = await h.newConversation();
    const words = Array.from({ length: 9000 }, (_, i) => `w${i}`).join(' ');
    const { status } = await h.sendAndWait(conversation.id, words);
    expect(status.error).toMatchObject({ kind: 'config', retryable: false, settings: true });
    expect(status.error!.message).toMatch(
      /too long for scripted-model.*context window is 8,000 tokens.*start a new conversation/,
    );
    expect(a.streamRequests()).toHaveLength(0);
  });
});
