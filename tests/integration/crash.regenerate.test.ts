// A regenerate waits for the MCP servers to start before it asks the model. Killing the
// host (SIGKILL) in that wait must not hide the old reply: after a restart it is shown
// again. And Stop answers at once in that wait, not when the server's start-up ends.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatCore } from '../support/chatHarness';
import { connectHost, integrityOk, readDb, startHostChild, type HostChild } from '../support/hostChild';
import { NODE, writeMcpConfig } from '../support/mcpFixtures';
import { startScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

/**
 * A stdio server that never answers `initialize`: its start-up lasts the whole connect
 * timeout. It ends with its input, as a real server does, so the host killed here leaves
 * no orphan running.
 */
const silentServer = { command: NODE, args: ['-e', "process.stdin.resume().on('end', () => process.exit(0))"] };

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp() {
  const server = await startScriptedServer({ script: [{ text: 'The first answer' }] });
  cleanups.push(() => server.close());
  const dataDir = makeTempDir('stepwise-crash-regen-');
  cleanups.push(() => removeDir(dataDir));
  const env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-crash-test', STEPWISE_MODEL: 'scripted' };
  const start = async () => {
    const host: HostChild = await startHostChild(dataDir, env);
    cleanups.push(() => host.kill());
    const api = await connectHost(host);
    cleanups.push(() => api.close());
    return { host, api };
  };
  return { server, dataDir, start };
}

describe('a crash while a regenerate waits for MCP servers', () => {
  it('shows the old reply again after a restart', async () => {
    const { dataDir, start } = await setUp();
    const first = await start();
    const conversation = await first.api.call('conversations:create', { title: 'Regenerate crash' });
    const idle = first.api.next('chat:status', (s) => s.conversationId === conversation.id && !s.running);
    await first.api.call('messages:send', { conversationId: conversation.id, content: 'A question' });
    await idle;

    const loaded = first.api.next('mcp:changed', (state) => state.servers.some((s) => s.name === 'slow'));
    writeMcpConfig(dataDir, { slow: silentServer });
    await loaded;
    // Written by hand, so it starts off: the user turns it on.
    await first.api.call('mcp:setEnabled', { name: 'slow', enabled: true });
    const starting = first.api.next('mcp:changed', (state) =>
      state.servers.some((s) => s.name === 'slow' && s.state === 'starting'),
    );
    await first.api.call('chat:regenerate', { conversationId: conversation.id });
    await starting;
    // The regenerate has begun and waits on the server: the old reply is off the shown branch.
    expect(
      readDb(dataDir, (db) => db.prepare("SELECT shown FROM messages WHERE role = 'assistant'").pluck().all()),
    ).toEqual([0]);
    await first.host.kill();

    // Without the slow server, so nothing waits after the restart.
    fs.rmSync(path.join(dataDir, 'mcp.json'));
    const second = await start();
    const { items } = await second.api.call('messages:list', { conversationId: conversation.id });
    expect(items.map((m) => [m.role, m.content])).toEqual([
      ['user', 'A question'],
      ['assistant', 'The first answer'],
    ]);
    expect(integrityOk(dataDir)).toBe(true);
  });
});

describe('Stop while a regenerate waits for MCP servers', () => {
  it('answers while the server is still starting, and the old reply is shown again', async () => {
    const server = await startScriptedServer({ script: [{ text: 'The first answer' }] });
    cleanups.push(() => server.close());
    const h = startChatCore(server);
    cleanups.push(() => h.close());
    const conversation = await h.newConversation('Stop in the wait');
    await h.sendAndWait(conversation.id, 'A question');
    writeMcpConfig(h.dataDir, { slow: silentServer });
    await h.waitForEvent('mcp:changed', (state) => state.servers.some((s) => s.name === 'slow'));
    await h.call('mcp:setEnabled', { name: 'slow', enabled: true });

    const from = h.events.length;
    await h.call('chat:regenerate', { conversationId: conversation.id });
    await h.waitForEvent(
      'mcp:changed',
      (state) => state.servers.some((s) => s.name === 'slow' && s.state === 'starting'),
      { from },
    );
    const status = await h.call('chat:stop', { conversationId: conversation.id });
    expect(status.running).toBe(false);
    // Stop did not wait for the start-up to end (it lasts the 30 s connect timeout).
    expect((await h.call('mcp:get', {})).servers.find((s) => s.name === 'slow')?.state).toBe('starting');
    await h.waitForEvent('messages:switched', (e) => e.conversationId === conversation.id, { from });
    expect(h.messages(conversation.id).map((m) => m.content)).toEqual(['A question', 'The first answer']);
  });
});
