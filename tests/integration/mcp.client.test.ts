// MCP tools through the real agent loop: the reference "everything" server and our test
// server over stdio, every result kind, isError, a timeout, Stop, a crash, list_changed,
// a 100-character tool name and a broken mcp.json.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { modelToolName, modelToolNames } from '../../src/main/core/mcp/mcpNames';
import { CANCELLED_WHILE_RUNNING } from '../../src/main/core/tools/toolRegistry';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, TEST_KEY, TEST_MODEL, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { alive, everything, LONG_TOOL, testServer, writeMcpConfig } from '../support/mcpFixtures';

let server: ScriptedServer;
let h: ChatHarness;
let root: string;

async function start(servers: Record<string, Record<string, unknown>>, model = TEST_MODEL) {
  root = makeTempDir('stepwise-mcp-');
  const dataDir = path.join(root, 'data');
  writeMcpConfig(dataDir, servers);
  server = await startScriptedServer();
  h = startChatCore(server, {
    dataDir,
    env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: TEST_KEY, STEPWISE_MODEL: model },
  });
}

beforeEach(() => {
  root = '';
});
afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
});

/** One user message; the model calls `calls` in its first turn, then answers "Done.". */
async function runCalls(calls: Array<{ name: string; arguments?: string }>, content = 'Use the tools.') {
  server.push(
    { toolCalls: calls.map((c, i) => ({ id: `call_${i}`, name: c.name, arguments: c.arguments ?? '{}' })) },
    { text: 'Done.' },
  );
  const conversation = await h.newConversation('MCP');
  await h.sendAndWait(conversation.id, content);
  const results = h.messages(conversation.id).filter((m) => m.role === 'tool');
  return { conversation, results };
}

describe('tools of the everything server over stdio', () => {
  it('offers its tools by their mcp__ names and returns each kind of result', async () => {
    await start({ everything: everything({ trusted: true }) });
    const { results } = await runCalls([
      { name: 'mcp__everything__echo', arguments: '{"message":"hello MCP"}' },
      { name: 'mcp__everything__get-tiny-image' },
      { name: 'mcp__everything__get-structured-content', arguments: '{"location":"New York"}' },
      { name: 'mcp__everything__get-resource-links', arguments: '{"count":2}' },
      { name: 'mcp__everything__get-resource-reference', arguments: '{"resourceType":"Text","resourceId":1}' },
    ]);

    const offered = server.streamRequests()[0].body.tools!.map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
    for (const name of offered) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // Schemas are passed through as the server gives them.
    const echo = server.streamRequests()[0].body.tools!.find((t) => t.function.name === 'mcp__everything__echo')!;
    expect(echo.function.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });

    const [text, image, structured, links, embedded] = results.map((m) => m.content);
    expect(text).toContain('hello MCP');
    expect(image).toMatch(/\[Image 1: image\/png, [\d.]+ KB, shown to the user\]/);
    expect(JSON.parse(structured)).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
    expect(links).toMatch(/\[Resource link: .+ <demo:\/\/resource\/dynamic\/(text|blob)\/\d>/);
    expect(embedded).toMatch(/\[Resource demo:\/\/resource\/dynamic\/text\/1\]/);
    // The next request carries the results.
    const second = server.streamRequests()[1].body.messages.filter((m) => m.role === 'tool');
    expect(second.map((m) => m.content)).toEqual(results.map((m) => m.content));

    const state = await h.call('mcp:get', {});
    expect(state.servers[0]).toMatchObject({ name: 'everything', state: 'ready', enabled: true });
    expect(state.servers[0].tools.length).toBeGreaterThan(5);
  });
});

describe('images and resources', () => {
  it('keeps them for the card and shows images to a model that sees them', async () => {
    await start({ everything: everything({ trusted: true }) }, 'gpt-4o-mini');
    const { conversation } = await runCalls([
      { name: 'mcp__everything__get-tiny-image' },
      { name: 'mcp__everything__get-resource-reference', arguments: '{"resourceType":"Text","resourceId":2}' },
    ]);
    const image = await h.call('tools:output', { conversationId: conversation.id, toolCallId: 'call_0' });
    expect(image!.images).toEqual([{ mimeType: 'image/png', data: expect.stringMatching(/^[A-Za-z0-9+/=]{100,}$/) }]);
    const resource = await h.call('tools:output', { conversationId: conversation.id, toolCallId: 'call_1' });
    expect(resource!.attachments[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/2', text: expect.any(String) });
    const next = server.streamRequests()[1].body.messages;
    const shown = next.at(-1) as unknown as {
      role: string;
      content: Array<{ type: string; image_url?: { url: string } }>;
    };
    expect(shown.role).toBe('user');
    expect(shown.content[1].image_url!.url).toMatch(/^data:image\/png;base64,/);
  });

  it('does not send images to a model that is not known to see them', async () => {
    await start({ everything: everything({ trusted: true }) });
    await runCalls([{ name: 'mcp__everything__get-tiny-image' }]);
    expect(server.streamRequests()[1].body.messages.at(-1)!.role).toBe('tool');
  });
});

describe('secrets', () => {
  it('masks the server’s own secrets in what it returns, in Settings and in its stderr', async () => {
    const key = 'sk-live-abcdefghijklmnop1234';
    await start({
      everything: everything({ trusted: true, env: { EXAMPLE_API_KEY: key } }),
      test: testServer({ trusted: true, env: { TEST_TOKEN: key } }),
    });
    const { results } = await runCalls([{ name: 'mcp__everything__get-env' }]);
    expect(results[0].content).toContain('EXAMPLE_API_KEY');
    expect(results[0].content).not.toContain(key);
    expect(results[0].content).toContain('••••1234');
    await runCalls([{ name: 'mcp__test__env_secret' }]);
    const state = JSON.stringify(await h.call('mcp:get', {}));
    expect(state).not.toContain(key);
    expect(state).toContain('test server ready, token ••••1234');
    expect(h.logs.join('\n')).not.toContain(key);
  });
});

describe('the test server', () => {
  it("puts the server's instructions in the system prompt with its tools' names", async () => {
    await start({ test: testServer({ trusted: true }) });
    await runCalls([{ name: 'mcp__test__read_note' }]);
    const system = server.streamRequests()[0].body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('## Tools of the MCP server "test" (');
    expect(system.content).toContain('mcp__test__slow');
    expect(system.content).toContain(
      '<serverInstructions>\nCall slow only when the user asks you to wait.\n</serverInstructions>',
    );
  });

  it('keeps the last 500 log messages of a server that floods its log', async () => {
    await start({ test: testServer({ trusted: true }) });
    const { results } = await runCalls([{ name: 'mcp__test__log_flood', arguments: '{"count":3000}' }]);
    expect(results[0].content).toBe('logged 3000 lines');
    const log = await h.call('mcp:log', { name: 'test' });
    expect(log.entries).toHaveLength(500);
    expect(log.dropped).toBe(2500);
    expect(log.entries[0]).toMatchObject({ level: 'info', logger: 'flood', text: 'line 2501' });
    expect(log.entries.at(-1)!.text).toBe('line 3000');
  });

  it('turns isError into a tool error the model can act on', async () => {
    await start({ test: testServer({ trusted: true }) });
    const { results } = await runCalls([{ name: 'mcp__test__fail' }]);
    expect(results[0].content).toBe('the disk is full');
  });

  it('abandons a call after the server timeout', async () => {
    await start({ test: testServer({ trusted: true, timeout: 1 }) });
    const { results } = await runCalls([{ name: 'mcp__test__slow', arguments: '{"ms":4000}' }]);
    expect(results[0].content).toMatch(/did not answer within 1 s/);
  });

  it('Stop sends notifications/cancelled and marks the call cancelled; progress reaches the card', async () => {
    await start({ test: testServer({ trusted: true }) });
    // A call that finished earlier in the turn is not cancelled: only the one in flight is.
    server.push(
      { toolCalls: [{ id: 'call_note', name: 'mcp__test__read_note', arguments: '{}' }] },
      { toolCalls: [{ id: 'call_slow', name: 'mcp__test__slow', arguments: '{"ms":8000}' }] },
    );
    const conversation = await h.newConversation('Stop');
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'Wait.' });
    const progress = await h.waitForEvent('tools:progress', (p) => p.toolCallId === 'call_slow', { from });
    expect(progress).toMatchObject({ conversationId: conversation.id, progress: 1, total: 4, message: 'step 1' });
    await h.call('chat:stop', { conversationId: conversation.id });
    const results = h.messages(conversation.id).filter((m) => m.role === 'tool');
    // The request had left Stepwise: the server may have carried it out, and the model reads so.
    expect(results.map((m) => m.content)).toEqual(['note contents', CANCELLED_WHILE_RUNNING]);
    expect(results[1].outcome).toBe('cancelled');
    // The server saw the cancellation (it writes a line to stderr when its signal fires).
    await vi.waitFor(() => expect(h.core.mcp.state().servers[0].stderr.join('\n')).toMatch(/cancelled request/), {
      timeout: 10_000,
    });
    // One cancellation, for the slow call's request (the note's finished before Stop).
    const stderr = h.core.mcp.state().servers[0].stderr;
    const cancelled = /^cancelled request (\S+)$/.exec(stderr.find((l) => l.startsWith('cancelled request'))!)![1];
    expect(stderr.filter((l) => l.startsWith('cancellation for request'))).toEqual([
      `cancellation for request ${cancelled}`,
    ]);
  });

  it('reports a server that crashes mid-call and restarts it on the next use', async () => {
    await start({ test: testServer({ trusted: true }) });
    const first = await runCalls([{ name: 'mcp__test__crash' }]);
    expect(first.results[0].content).toMatch(/The MCP server "test" stopped while running crash/);
    const crashed = h.core.mcp.state().servers[0];
    expect(crashed.state).toBe('error');
    expect(crashed.error).toMatch(/test stopped: the server process exited/);
    expect(crashed.stderr.join('\n')).toContain('about to crash on purpose');
    expect(h.core.notices.list().find((n) => n.id === 'mcp-server-test')?.text).toMatch(
      /test stopped: the server process exited\. Stepwise restarts it/,
    );

    // After the backoff the next conversation starts it again.
    await vi.waitFor(() => expect(h.core.mcp.server('test')!.wantsStart()).toBe(true), { timeout: 5000 });
    const second = await runCalls([{ name: 'mcp__test__read_note' }]);
    expect(second.results[0].content).toBe('note contents');
    expect(h.core.mcp.state().servers[0].state).toBe('ready');
    expect(h.core.notices.list().some((n) => n.id === 'mcp-server-test')).toBe(false);
  });

  it('follows tools/list_changed', async () => {
    await start({ test: testServer({ trusted: true }) });
    server.push(
      { toolCalls: [{ id: 'call_add', name: 'mcp__test__add_tool', arguments: '{"name":"fresh"}' }] },
      { toolCalls: [{ id: 'call_fresh', name: 'mcp__test__fresh', arguments: '{}' }] },
      { text: 'Done.' },
    );
    const conversation = await h.newConversation('List changed');
    // The new tool must be in the registry before the second request is built.
    const registered = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (h.core.tools.has('mcp__test__fresh')) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    await h.sendAndWait(conversation.id, 'Add a tool and use it.');
    await registered;
    const tools = h.messages(conversation.id).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toContain('added fresh');
    expect(h.core.mcp.state().servers[0].tools.map((t) => t.name)).toContain('fresh');
  });

  it('sanitizes a 100-character tool name to a stable 64-character one that still works', async () => {
    const name = modelToolName('test', LONG_TOOL);
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(name).toHaveLength(64);
    expect(name).toBe(modelToolNames('test', ['a', LONG_TOOL]).get(LONG_TOOL));
    expect(modelToolName('my server.v2', 'do/it')).toBe('mcp__my_server_v2__do_it');

    await start({ test: testServer({ trusted: true }) });
    const { results } = await runCalls([{ name }]);
    expect(results[0].content).toBe('long name ran');
    const view = h.core.mcp.state().servers[0].tools.find((t) => t.name === LONG_TOOL)!;
    expect(view.modelName).toBe(name);
  });

  it('stops every server process on close', async () => {
    await start({ test: testServer({ trusted: true }), everything: everything({ trusted: true }) });
    await runCalls([{ name: 'mcp__test__read_note' }]);
    const pids = ['test', 'everything'].map((n) => h.core.mcp.server(n)!.pid()).filter((p): p is number => p !== null);
    expect(pids).toHaveLength(2);
    await h.core.close();
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});

describe('mcp.json', () => {
  it('keeps the last good configuration when the file breaks, with a notice naming the line', async () => {
    await start({ test: testServer() });
    const file = path.join(h.dataDir, 'mcp.json');
    const broken = '{\n  "mcpServers": {\n    "test": { "command": "node", }\n  }\n}\n';
    fs.writeFileSync(file, broken);
    const notice = await h.waitForEvent('notices:changed', (n) => n.some((x) => x.id === 'mcp-config'));
    expect(notice.find((x) => x.id === 'mcp-config')!.text).toMatch(/line 3/);
    const state = await h.call('mcp:get', {});
    expect(state.configError).toMatch(/line 3/);
    expect(state.servers.map((s) => s.name)).toEqual(['test']);
    // Edits are refused rather than overwriting the user's file.
    const error = await h.callError('mcp:setEnabled', { name: 'test', enabled: false });
    expect(error.message).toMatch(/Fix mcp.json by hand first/);
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);

    // A hand edit that fixes it is picked up without a restart.
    fs.writeFileSync(file, JSON.stringify({ servers: { other: { type: 'stdio', command: 'node', disabled: true } } }));
    await vi.waitFor(async () => expect((await h.call('mcp:get', {})).servers.map((s) => s.name)).toEqual(['other']));
    expect((await h.call('mcp:get', {})).configError).toBeNull();
  });
});

describe('elicitation', () => {
  async function ask(tool: string, args = '{}') {
    await start({ everything: everything({ trusted: true }) });
    server.push(
      { toolCalls: [{ id: 'call_ask', name: `mcp__everything__${tool}`, arguments: args }] },
      { text: 'Thanks.' },
    );
    const conversation = await h.newConversation('Elicit');
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'Ask me.' });
    const asked = await h.waitForEvent(
      'questions:changed',
      (e) => e.conversationId === conversation.id && e.questions.length > 0,
      { from },
    );
    return { question: asked.questions[0], conversation, from };
  }

  it('asks with a form: defaults filled in, choices as options, numbers and switches by type', async () => {
    const { question, conversation, from } = await ask('trigger-elicitation-request');
    expect(question.text).toMatch(/^The MCP server "everything" asks: Please provide inputs/);
    expect(question.freeText).toBe(false);
    expect(question.actions.map((a) => a.label)).toEqual(['Decline']);
    const field = (name: string) => question.form!.find((f) => f.name === name)!;
    expect(field('name')).toMatchObject({ kind: 'text', required: true, value: null });
    expect(field('check')).toMatchObject({ kind: 'boolean' });
    expect(field('email')).toMatchObject({ kind: 'text', format: 'email' });
    expect(field('firstLine')).toMatchObject({ kind: 'text', value: 'It was a dark and stormy night.' });
    expect(field('integer')).toMatchObject({ kind: 'integer', value: 42 });
    expect(field('number')).toMatchObject({ kind: 'number', value: 3.14, minimum: 0, maximum: 1000 });
    expect(field('untitledSingleSelectEnum')).toMatchObject({ kind: 'choice', value: 'Monica' });
    expect(field('untitledMultipleSelectEnum')).toMatchObject({ kind: 'choices', value: ['Guitar'] });
    expect(field('untitledMultipleSelectEnum').options.map((o) => o.value)).toContain('Piano');
    expect(field('titledSingleSelectEnum').options[0]).toEqual({ value: 'hero-1', label: 'Superman' });
    expect(field('titledMultipleSelectEnum')).toMatchObject({ kind: 'choices', value: ['fish-1'] });

    const defaults = Object.fromEntries(question.form!.filter((f) => f.value !== null).map((f) => [f.name, f.value!]));
    // A value the field does not allow is refused with the reason; the question stays open.
    const refused = await h.callError('questions:answer', {
      questionId: question.id,
      reply: { kind: 'form', values: { ...defaults, name: 'Ada', number: 5000 } },
    });
    expect(refused.message).toBe('Number in range 1-1000 must be at most 1000.');
    await h.call('questions:answer', {
      questionId: question.id,
      reply: {
        kind: 'form',
        values: { ...defaults, name: 'Ada Lovelace', check: true, untitledMultipleSelectEnum: ['Piano', 'Drums'] },
      },
    });
    await h.waitIdle(conversation.id, from);
    const result = h.messages(conversation.id).find((m) => m.role === 'tool')!.content;
    expect(result).toContain('Ada Lovelace');
    expect(result).toMatch(/accept/i);
    expect(result).toContain('It was a dark and stormy night.');
    expect(result).toContain('Drums');
  });

  it('asks to open a page (URL mode) with its host, and accepts only when the user opens it', async () => {
    const { question, conversation, from } = await ask(
      'trigger-url-elicitation',
      JSON.stringify({ url: 'https://login.example.com/device?code=42', message: 'Finish in the browser.' }),
    );
    expect(question.text).toBe(
      'The MCP server "everything" asks you to open a page on login.example.com: Finish in the browser.',
    );
    expect(question.link).toEqual({
      url: 'https://login.example.com/device?code=42',
      host: 'login.example.com',
      action: 'open',
    });
    expect(question.form).toBeNull();
    expect(question.actions.map((a) => a.label)).toEqual(['Open login.example.com', 'Decline']);
    await h.call('questions:answer', { questionId: question.id, reply: { kind: 'action', actionId: 'open' } });
    await h.waitIdle(conversation.id, from);
    expect(h.messages(conversation.id).find((m) => m.role === 'tool')!.content).toMatch(/accept/i);
  });
});
