// No client is locked out of task sharing: abandoned sessions give their place to a new
// client, idle ones are ended after 60 s (the endpoint on a clock the test moves), and
// new sessions are limited a second with a clear error instead of a 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { closeClient, connectClient, freePort, parseConfiguration, type ShareConfig } from '../support/taskShareClient';
import { makeTempDir, removeDir } from '../support/tempDir';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { createShareReader } from '../../src/main/core/taskShare/shareReader';
import { createShareServer } from '../../src/main/core/taskShare/shareTools';
import { startEndpoint } from '../../src/main/core/taskShare/shareEndpoint';
import { IDLE_MS, MAX_CLIENTS } from '../../src/main/core/taskShare/shareSessions';

let server: ScriptedServer;
let h: ChatHarness;
let config: ShareConfig;

beforeAll(async () => {
  server = await startScriptedServer();
  h = startChatCore(server);
  await h.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: await freePort() } });
  await h.core.taskShare.settled();
  config = parseConfiguration((await h.call('taskShare:configuration', {})).json);
});

afterAll(async () => {
  await h?.close();
  await server?.close();
});

/** An initialize by hand, as a client that never opens a stream nor ends its session. */
async function initializeRaw(url: string, token: string): Promise<{ status: number; sessionId: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await response.text();
  return { status: response.status, sessionId: response.headers.get('mcp-session-id') };
}

describe('abandoned sessions', () => {
  it('lets a 17th client in after 16 sessions that were never ended', async () => {
    const abandoned: Client[] = [];
    for (let i = 0; i < MAX_CLIENTS; i++) abandoned.push(await connectClient(config, `abandoned-${i}`));
    expect(h.core.taskShare.status().clients).toBe(MAX_CLIENTS);
    const late = await connectClient(config, 'late-client');
    expect((await late.listTools()).tools.length).toBe(6);
    expect(h.core.taskShare.status().clients).toBe(MAX_CLIENTS);
    // The longest-idle one gave its place up, and is told so if it comes back.
    const first = await abandoned[0].listTools().catch((e: Error) => e);
    expect(String(first)).toMatch(/Unknown or ended session: initialize again/);
    await closeClient(late);
    await Promise.all(abandoned.map((c) => c.close()));
  });

  it('limits new sessions a second with a clear error, never "too many clients"', async () => {
    const opened = await Promise.all(Array.from({ length: 40 }, () => initializeRaw(config.url, config.token)));
    const statuses = opened.map((o) => o.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(statuses).toContain(429);
    expect(statuses).not.toContain(503);
    expect(h.core.taskShare.status().clients).toBeLessThanOrEqual(MAX_CLIENTS);
  });
});

describe('idle sessions', () => {
  it('ends a session unheard for 60 s, and keeps one that was heard', async () => {
    const dir = makeTempDir('stepwise-share-idle-');
    const { db } = openDatabase(dir);
    let clock = 0;
    const token = 'idle-test-token-0123456789';
    const endpoint = await startEndpoint({
      port: await freePort(),
      token: () => token,
      newServer: () => createShareServer({ reader: createShareReader(db), writer: null, version: 'test' }),
      now: () => clock,
    });
    try {
      const quiet = await initializeRaw(endpoint.url, token);
      const busy = await initializeRaw(endpoint.url, token);
      expect([quiet.status, busy.status]).toEqual([200, 200]);
      expect(endpoint.clients()).toBe(2);
      clock += IDLE_MS - 1;
      expect(endpoint.reapIdle()).toBe(0);
      const ping = () =>
        fetch(endpoint.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': busy.sessionId!,
            'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
        });
      expect((await ping()).status).toBe(200);
      clock += 2;
      expect(endpoint.reapIdle()).toBe(1);
      expect(endpoint.clients()).toBe(1);
      clock += IDLE_MS + 1;
      expect(endpoint.reapIdle()).toBe(1);
      expect(endpoint.clients()).toBe(0);
      const after = await ping();
      expect(after.status).toBe(404);
      expect(await after.text()).toMatch(/initialize again/);
    } finally {
      await endpoint.close();
      db.close();
      removeDir(dir);
    }
  });
});
