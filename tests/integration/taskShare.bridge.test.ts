// The stdio bridge keeps working after the endpoint ends its session: evicted when a 17th
// client comes, or reaped after 60 s of silence, it opens a new session on its next call
// (replaying its client's initialize) instead of failing. The bridge runs in this process
// (runMcpStdio on streams the test holds), spoken to line by line as a stdio client would.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { closeClient, connectClient, freePort, parseConfiguration } from '../support/taskShareClient';
import { makeTempDir, removeDir } from '../support/tempDir';
import { findRunningEndpoint, runMcpStdio } from '../../src/main/cli/mcpStdio';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { createShareReader } from '../../src/main/core/taskShare/shareReader';
import { createShareServer } from '../../src/main/core/taskShare/shareTools';
import { startEndpoint } from '../../src/main/core/taskShare/shareEndpoint';
import { IDLE_MS, MAX_CLIENTS } from '../../src/main/core/taskShare/shareSessions';
import { DISCOVERY_FILE } from '../../src/main/core/taskShare/taskShareModule';

interface Answer {
  id: number;
  result?: { tools?: unknown[]; content?: Array<{ text?: string }> };
  error?: { code: number; message: string };
}

/** The bridge on streams of our own; ends when its standard input does. */
function startBridge(dataDir: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let stderr = '';
  const running = runMcpStdio({ dataDir, version: 'test', stderr: (t) => (stderr += t), stdin, stdout });
  const waiting = new Map<number, (answer: Answer) => void>();
  readline.createInterface({ input: stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Partial<Answer>;
    if (typeof message.id === 'number') waiting.get(message.id)?.(message as Answer);
  });
  let nextId = 1;
  const send = (message: object) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (method: string, params: object = {}): Promise<Answer> => {
    const id = nextId++;
    const answered = new Promise<Answer>((resolve) => waiting.set(id, resolve));
    send({ id, method, params });
    return answered;
  };
  return {
    request,
    stderr: () => stderr,
    async initialize(): Promise<Answer> {
      const answer = await request('initialize', {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'bridged-agent', version: '1.0.0' },
      });
      send({ method: 'notifications/initialized' });
      return answer;
    },
    async end(): Promise<number> {
      stdin.end();
      return running;
    },
  };
}

describe('the stdio bridge after its session was ended by the endpoint', () => {
  let h: ChatHarness;
  beforeAll(async () => {
    h = startChatCore(null);
    await h.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: await freePort() } });
    await h.core.taskShare.settled();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('evicted as the longest-idle of 16 when a 17th client came: its next call opens a new session', async () => {
    const conversationId = (await h.newConversation('Bridged work')).id;
    await h.call('tasks:add', { conversationId, title: 'Survive eviction' });
    // The bridge forwards only to an endpoint that proves it is this Stepwise, within 2 s;
    // the first fetch of this process loads its HTTP client (3 s on the loaded machine).
    const config = parseConfiguration((await h.call('taskShare:configuration', {})).json);
    expect((await fetch(new URL(`/stepwise-identity?nonce=${'n'.repeat(24)}`, config.url))).status).toBe(200);
    expect(await findRunningEndpoint(h.dataDir)).toMatchObject({ pid: process.pid });
    const bridge = startBridge(h.dataDir);
    expect((await bridge.initialize()).result).toBeTruthy();
    expect((await bridge.request('tools/list')).result?.tools).toHaveLength(6);
    expect(h.core.taskShare.status().clients).toBe(1);

    // Sixteen newer clients: the bridge's session is the longest idle, and gives its place up.
    const others: Client[] = [];
    for (let i = 0; i < MAX_CLIENTS; i++) others.push(await connectClient(config, `newer-${i}`));
    expect(h.core.taskShare.status().clients).toBe(MAX_CLIENTS);

    const again = await bridge.request('tools/call', { name: 'get_task_list', arguments: { conversationId } });
    expect(again.error).toBeUndefined();
    expect(again.result?.content?.[0]?.text).toContain('Survive eviction');
    expect(h.core.taskShare.status().clients).toBe(MAX_CLIENTS);
    expect(bridge.stderr()).toBe('');
    await Promise.all(others.map((c) => closeClient(c)));
    expect(await bridge.end()).toBe(0);
  });
});

describe('the stdio bridge after 60 s of silence', () => {
  it('reaped by the idle reaper: its next call opens a new session, and the client never knows', async () => {
    const dir = makeTempDir('stepwise-bridge-reaped-');
    const { db } = openDatabase(dir);
    let clock = 0;
    const token = 'bridge-reaped-token-0123456789';
    const endpoint = await startEndpoint({
      port: await freePort(),
      token: () => token,
      newServer: () => createShareServer({ reader: createShareReader(db), writer: null, version: 'test' }),
      now: () => clock,
    });
    // What a running Stepwise leaves for the bridge to find.
    fs.writeFileSync(path.join(dir, DISCOVERY_FILE), JSON.stringify({ url: endpoint.url, token, pid: process.pid }), {
      mode: 0o600,
    });
    try {
      const bridge = startBridge(dir);
      expect((await bridge.initialize()).result).toBeTruthy();
      expect((await bridge.request('tools/list')).result?.tools).toHaveLength(6);
      expect(endpoint.clients()).toBe(1);
      clock += IDLE_MS + 1;
      expect(endpoint.reapIdle()).toBe(1);
      expect(endpoint.clients()).toBe(0);

      const again = await bridge.request('tools/list');
      expect(again.error).toBeUndefined();
      expect(again.result?.tools).toHaveLength(6);
      expect(endpoint.clients()).toBe(1);
      // Ending the bridge ends its new session too.
      expect(await bridge.end()).toBe(0);
      expect(endpoint.clients()).toBe(0);
      expect(bridge.stderr()).toBe('');
    } finally {
      await endpoint.close();
      db.close();
      removeDir(dir);
    }
  });
});
