// The API key goes to the server and nowhere else: not in events, results, logs, console
// output or the database, even when a careless server echoes it in its error texts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startScriptedServer, times, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, TEST_KEY, TEST_MODEL, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let console_: string[];

beforeEach(async () => {
  server = await startScriptedServer({ models: 401 });
  console_ = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      console_.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' '));
    });
  }
});

afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

function expectNoKey(h: ChatHarness, key: string, results: unknown[]) {
  const everything = [
    JSON.stringify(h.events),
    JSON.stringify(results),
    h.logs.join('\n'),
    console_.join('\n'),
    JSON.stringify(h.core.db.prepare('SELECT * FROM messages').all()),
    JSON.stringify(h.core.db.prepare('SELECT * FROM conversations').all()),
  ].join('\n');
  expect(everything.length).toBeGreaterThan(1000);
  expect(everything).not.toContain(key);
}

describe('the API key', () => {
  it('never appears in any event, result, log or stored message, whatever fails', async () => {
    const h = startChatCore(server);
    const results: unknown[] = [];
    const run = async (content: string) => {
      const conversation = await h.newConversation();
      results.push(await h.sendAndWait(conversation.id, content));
      results.push(await h.call('chat:status', { conversationId: conversation.id }));
      return conversation.id;
    };
    try {
      server.push({ status: 401 });
      await run('401 please');
      server.push({ status: 400, errorMessage: `Bad request for key ${TEST_KEY}` });
      await run('400 please');
      server.push(...times(3, { status: 500, errorMessage: `Internal error, key=${TEST_KEY}` }));
      await run('500 please');
      server.push({ text: ['Half ', 'a reply'], dropAfter: 2 });
      await run('drop please');
      server.push({ text: `Fine (and ${'not the key'})` }, { text: 'Title' });
      await run('ok please');
      results.push(await h.core.dispatch('models:list', {}));
      results.push(await h.core.dispatch('settings:get', {}));

      const errors = h.eventsOf('chat:status').flatMap((s) => (s.error ? [s.error.message] : []));
      expect(errors.some((m) => m.includes('[redacted]'))).toBe(true);
      expect(server.chatRequests().every((r) => r.headers.authorization === `Bearer ${TEST_KEY}`)).toBe(true);
      expectNoKey(h, TEST_KEY, results);
    } finally {
      h.close();
    }
  });

  it('set through providers:setKey is used for requests and never comes back out', async () => {
    const key = 'sk-stored-key-9876543210-abcdef';
    const h = startChatCore(server, { env: {} });
    const results: unknown[] = [];
    try {
      await h.call('providers:save', {
        profile: {
          id: 'default',
          name: 'Scripted',
          preset: 'custom',
          baseUrl: server.baseUrl,
          defaultModel: TEST_MODEL,
        },
      });
      const view = await h.call('providers:setKey', { id: 'default', key });
      results.push(view);
      expect(view.profiles.find((p) => p.id === 'default')).toMatchObject({ key: 'saved', keyServer: null });
      server.push({ status: 401 });
      const conversation = await h.newConversation('Stored key');
      results.push(await h.sendAndWait(conversation.id, 'Hello'));
      expect(server.chatRequests()[0].headers.authorization).toBe(`Bearer ${key}`);
      results.push(await h.core.dispatch('models:list', {}));
      expectNoKey(h, key, results);

      const cleared = await h.call('providers:setKey', { id: 'default', key: null });
      expect(cleared.profiles.find((p) => p.id === 'default')).toMatchObject({ key: 'none' });
    } finally {
      h.close();
    }
  });
});
