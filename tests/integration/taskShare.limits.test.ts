// Task sharing that no client can overload or lock out, with the real SDK client against
// a running core holding 10,000 lists: limits counted per token across sessions, bounded
// text filters (Unicode case), the app answering while one client calls at its limit,
// the 413, and resources/list_changed. (Sessions: taskShare.sessions.test.ts.) (Timings: bench/taskShareLoad.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import {
  callJson,
  closeClient,
  connectClient,
  freePort,
  parseConfiguration,
  resultText,
  type ShareConfig,
} from '../support/taskShareClient';
import { seedShareLists } from '../support/shareLists';

const LISTS = 10_000;

let server: ScriptedServer;
let h: ChatHarness;
let config: ShareConfig;
let client: Client;

interface Lists {
  lists: Array<{ conversationId: string; title: string; progress: string }>;
}

beforeAll(async () => {
  server = await startScriptedServer();
  h = startChatCore(server);
  seedShareLists(h.core.db, LISTS);
  await h.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: await freePort() } });
  await h.core.taskShare.settled();
  config = parseConfiguration((await h.call('taskShare:configuration', {})).json);
  client = await connectClient(config, 'steady-client');
}, 120_000);

afterAll(async () => {
  await client?.close();
  await h?.close();
  await server?.close();
});

describe('text filters at 10,000 lists', () => {
  it('answers an 83-word filter: repeated words count once, and too many different ones are refused', async () => {
    const repeated = Array.from({ length: 83 }, (_, i) => ['9', 'T', '8'][i % 3]).join(' ');
    expect(repeated.length).toBeLessThanOrEqual(200);
    const found = await callJson<Lists>(client, 'list_task_lists', { text: repeated });
    expect(found.lists).toHaveLength(50);
    expect(found.lists.every((l) => /9/.test(l.title) && /8/.test(l.title))).toBe(true);

    // Eighty-three different one-character words (CJK) fit in 200 characters.
    const distinct = Array.from({ length: 83 }, (_, i) => String.fromCharCode(0x4e00 + i)).join(' ');
    const refused = resultText(await client.callTool({ name: 'list_task_lists', arguments: { text: distinct } }));
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/83 different words; use at most 16/);

    const long = resultText(await client.callTool({ name: 'list_task_lists', arguments: { text: 'x'.repeat(201) } }));
    expect(long).toEqual({ isError: true, text: expect.stringMatching(/201 characters long; use at most 200/) });
    // Sixteen words that match nothing walk every list and answer an empty page.
    const none = await callJson<Lists>(client, 'list_task_lists', {
      text: Array.from({ length: 16 }, (_, i) => `absent${i}`).join(' '),
    });
    expect(none.lists).toEqual([]);
  });

  it('ignores case beyond ASCII, as the board does', async () => {
    const conversation = await h.newConversation('Äpfel und Öl');
    await h.call('tasks:add', { conversationId: conversation.id, title: 'Grüße an ÉLODIE' });
    for (const text of ['ä', 'ÄPFEL', 'öl', 'élodie grüsse', 'ÉLODIE GRÜẞE'.toLowerCase()]) {
      const { lists } = await callJson<Lists>(client, 'list_task_lists', { text });
      const hit = lists.some((l) => l.conversationId === conversation.id);
      expect(hit, text).toBe(text !== 'élodie grüsse');
    }
    // A renamed task is found by its new title at once.
    await h.call('tasks:update', { conversationId: conversation.id, taskId: 1, patch: { title: 'Ärger vermeiden' } });
    const renamed = await callJson<Lists>(client, 'list_task_lists', { text: 'ärger' });
    expect(renamed.lists.map((l) => l.conversationId)).toEqual([conversation.id]);
    const board = await h.call('board:list', {
      filter: { statuses: [], folderId: null, text: 'ä', showCompleted: false },
      offset: 0,
      limit: 10,
    });
    expect(board.groups.map((g) => g.conversationId)).toEqual([conversation.id]);
  });
});

describe('limits per token', () => {
  it('counts calls across every session of the token: opening sessions gains nothing', async () => {
    // A client that opens a new session for every ten calls: twelve sessions (real SDK
    // clients), then ten calls from each at once, as one batch per session so that they
    // arrive within the same second however busy the machine is.
    const sessions: Client[] = [];
    for (let i = 0; i < 12; i++) sessions.push(await connectClient(config, `churn-${i}`));
    const batch = (sessionId: string, from: number) =>
      fetch(config.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
        },
        body: JSON.stringify(
          Array.from({ length: 10 }, (_, i) => ({
            jsonrpc: '2.0',
            id: from + i,
            method: 'tools/call',
            params: { name: 'list_task_lists', arguments: { limit: 1 } },
          })),
        ),
      }).then(async (response) => ({ status: response.status, text: await response.text() }));
    const answers = await Promise.all(
      sessions.map((c, i) => batch((c.transport as StreamableHTTPClientTransport).sessionId!, i * 10)),
    );
    // No session went over its own 50 a second: the token's count refused the rest.
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.length - refused.length).toBeGreaterThan(0);
    expect(answers.length - refused.length).toBeLessThanOrEqual(5);
    expect(refused.length).toBeGreaterThanOrEqual(7);
    expect(refused[0].text).toMatch(/all sessions with this token together/);
    // Each refused call has its own JSON-RPC error, so a client's pending calls fail with the reason.
    expect(JSON.parse(refused[0].text)).toHaveLength(10);
    await Promise.all(sessions.map((c) => closeClient(c)));
  });

  it('keeps the app answering while one client calls at its limit', async () => {
    const greedy = await connectClient(config, 'greedy');
    let stop = false;
    let answered = 0;
    // The dearest call there is, eight at a time, again and again.
    const text = Array.from({ length: 16 }, (_, i) => `absent${i}`).join(' ');
    const loop = (async () => {
      while (!stop) {
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, () => greedy.callTool({ name: 'list_task_lists', arguments: { text } })),
        );
        answered += results.filter((r) => r.status === 'fulfilled').length;
      }
    })();
    // The app is asked for something else all along, until the greedy client got 16 answers.
    const infos = [];
    while (answered < 16 || infos.length < 40) {
      infos.push(await h.call('app:info', {}));
      // A call answered at once resolves in a microtask: let the sockets have their turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    stop = true;
    await loop;
    expect(infos.length).toBeGreaterThanOrEqual(40);
    expect(infos.every((info) => typeof info.version === 'string')).toBe(true);
    expect(answered).toBeGreaterThan(0);
    // Other clients still get their answers.
    expect((await callJson<Lists>(client, 'list_task_lists', { limit: 1 })).lists).toHaveLength(1);
    await closeClient(greedy);
  });
});

describe('requests and notifications', () => {
  it('answers a body over 1 MB with 413 and its message, not a reset', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(2 * 1024 * 1024) },
    });
    const response = await fetch(config.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body,
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toMatch(/Request too large \(over 1048576 bytes\)/);
    expect((await client.listTools()).tools.length).toBe(6);
  });

  it('sends resources/list_changed when a list is created and when it is deleted', async () => {
    const listener = await connectClient(config, 'listener');
    const writer = await connectClient(config, 'writer');
    let notes = 0;
    let heard: () => void = () => {};
    listener.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      notes++;
      heard();
    });
    const next = () => new Promise<void>((resolve) => (heard = resolve));
    let note = next();
    const created = await callJson<{ conversationId: string }>(writer, 'create_task_list', {
      title: 'Fresh list',
      tasks: ['One'],
    });
    await note;
    expect(notes).toBeGreaterThanOrEqual(1);
    const { resources } = await listener.listResources();
    expect(resources.some((r) => r.uri === `stepwise://tasks/${created.conversationId}`)).toBe(true);
    note = next();
    await h.call('conversations:delete', { id: created.conversationId });
    await note;
    expect(notes).toBeGreaterThanOrEqual(2);
    await closeClient(listener);
    await closeClient(writer);
  });
});
