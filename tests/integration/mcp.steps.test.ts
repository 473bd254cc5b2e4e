// What an MCP tool step offers beyond its text, through the real core: the server a step
// needed a sign-in for (mcp:stepSignIn), and an MCP App's step (mcpApps:forCall, its
// resource with the CSP inside, and a tool call the app makes through the approvals).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, TEST_KEY, TEST_MODEL, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { everything, NODE, writeMcpConfig } from '../support/mcpFixtures';
import { CANCELLED_WHILE_RUNNING } from '../../src/main/core/tools/toolRegistry';

const SIGN_IN_ON_CALL = fileURLToPath(new URL('../support/mcp/signInOnCallServer.mjs', import.meta.url));
const BASIC_APP_BIN = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js', import.meta.url),
);

let server: ScriptedServer | undefined;
let h: ChatHarness | undefined;
let root = '';
let remote: ChildProcess | undefined;

async function start(servers: Record<string, Record<string, unknown>>) {
  root = makeTempDir('stepwise-mcp-steps-');
  const dataDir = path.join(root, 'data');
  writeMcpConfig(dataDir, servers);
  server = await startScriptedServer();
  h = startChatCore(server, {
    dataDir,
    env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: TEST_KEY, STEPWISE_MODEL: TEST_MODEL },
  });
  return { server, h };
}

async function startRemote(): Promise<string> {
  const child = spawn(NODE, [SIGN_IN_ON_CALL], { stdio: ['ignore', 'pipe', 'inherit'] });
  remote = child;
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`sign-in test server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

afterEach(async () => {
  await h?.close();
  await server?.close();
  remote?.kill('SIGTERM');
  if (root) removeDir(root);
  h = server = remote = undefined;
  root = '';
});

describe('MCP steps', () => {
  it('a call refused with 401 names its server for the step to offer Sign in', async () => {
    const { server, h } = await start({ remote: { url: await startRemote(), trusted: true } });
    server.push({ toolCalls: [{ id: 'call_who', name: 'mcp__remote__whoami', arguments: '{}' }] }, { text: 'Done.' });
    const conversation = await h.newConversation('Sign in');
    await h.sendAndWait(conversation.id, 'Who am I?');
    const result = h.messages(conversation.id).find((m) => m.role === 'tool')!;
    expect(result.content).toContain('needs the user to sign in');
    expect(await h.call('mcp:stepSignIn', { conversationId: conversation.id, toolCallId: 'call_who' })).toEqual({
      server: 'remote',
    });
    expect(await h.call('mcp:stepSignIn', { conversationId: conversation.id, toolCallId: 'call_other' })).toBeNull();
  });

  it("an app's step: its raw result, its document with the CSP first, and the app's own tool call", async () => {
    const { server, h } = await start({ basic: { command: NODE, args: [BASIC_APP_BIN, '--stdio'], trusted: true } });
    server.push({ toolCalls: [{ id: 'call_time', name: 'mcp__basic__get-time', arguments: '{}' }] }, { text: 'Done.' });
    const conversation = await h.newConversation('Apps');
    await h.sendAndWait(conversation.id, 'What time is it?');
    const step = { conversationId: conversation.id, toolCallId: 'call_time', toolName: 'mcp__basic__get-time' };
    const app = await h.call('mcpApps:forCall', step);
    expect(app).toMatchObject({ server: 'basic', tool: 'get-time', resourceUri: 'ui://get-time/mcp-app.html' });
    expect(app!.result!.structuredContent!.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // A step of a tool without an app has none.
    expect(await h.call('mcpApps:forCall', { ...step, toolCallId: 'call_x', toolName: 'mcp__basic__nope' })).toBeNull();

    const resource = await h.call('mcpApps:resource', { server: 'basic', uri: app!.resourceUri });
    expect(resource.html).toMatch(
      /^<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none';/i,
    );
    expect(resource.html).toContain('<title>Get Time App</title>');

    const called = await h.call('mcpApps:callTool', {
      conversationId: conversation.id,
      server: 'basic',
      name: 'get-time',
      arguments: {},
    });
    expect(called.structuredContent!.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await expect(
      h.call('mcpApps:callTool', { conversationId: conversation.id, server: 'basic', name: 'nope', arguments: {} }),
    ).rejects.toThrow('MCP server "basic" has no tool named "nope".');
    await expect(h.call('mcpApps:resource', { server: 'basic', uri: 'ui://nowhere/app.html' })).rejects.toThrow(
      /could not read ui:\/\/nowhere\/app.html/,
    );
  });

  it('a tool that requires task execution runs as an MCP task: its status reaches the step, then its result', async () => {
    const { server, h } = await start({ everything: everything({ trusted: true }) });
    server.push(
      {
        toolCalls: [
          { id: 'call_research', name: 'mcp__everything__simulate-research-query', arguments: '{"topic":"tides"}' },
        ],
      },
      { text: 'Done.' },
    );
    const conversation = await h.newConversation('Tasks');
    await h.sendAndWait(conversation.id, 'Research tides.');
    const result = h.messages(conversation.id).find((m) => m.role === 'tool')!;
    expect(result.outcome).toBe('ok');
    expect(result.content).toContain('tides');
    const statuses = h.eventsOf('mcp:taskStatus').filter((e) => e.toolCallId === 'call_research');
    expect(statuses[0]).toMatchObject({ conversationId: conversation.id, status: 'working' });
    expect(statuses.map((s) => s.message)).toContain('Gathering sources...');
    expect(statuses.at(-1)!.status).toBe('completed');
  });

  it('Stop cancels a call running as a task', async () => {
    const { server, h } = await start({ everything: everything({ trusted: true }) });
    server.push({
      toolCalls: [
        { id: 'call_research', name: 'mcp__everything__simulate-research-query', arguments: '{"topic":"waves"}' },
      ],
    });
    const conversation = await h.newConversation('Stop a task');
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'Research waves.' });
    await h.waitForEvent('mcp:taskStatus', (e) => e.toolCallId === 'call_research', { from });
    await h.call('chat:stop', { conversationId: conversation.id });
    const result = h.messages(conversation.id).find((m) => m.role === 'tool')!;
    expect(result.content).toBe(CANCELLED_WHILE_RUNNING);
    expect(result.outcome).toBe('cancelled');
    // Its end is told (the task's ledger and step stop showing it running), though no status came from the server.
    const last = h
      .eventsOf('mcp:taskStatus')
      .filter((e) => e.toolCallId === 'call_research')
      .at(-1)!;
    expect(last).toMatchObject({
      status: 'cancelled',
      toolName: 'mcp__everything__simulate-research-query',
      ledgerTask: null,
    });
  });
});
