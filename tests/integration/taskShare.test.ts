// Task lists shared over MCP: a real SDK Client over Streamable HTTP against a running
// core with sharing on. Every tool and its rule violations, resource subscriptions fed by
// changes from the page, the token and Origin guards, the limits, turning sharing off,
// and what the conversation's model is told on its next request.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
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
import { plumbingLine } from '../../src/shared/messageKinds';

let server: ScriptedServer;
let h: ChatHarness;
let config: ShareConfig;
let client: Client;
let port: number;

interface ListView {
  conversationId: string;
  title: string;
  folder: string | null;
  progress: string;
  tasks: Array<{ id: number; title: string; status: string; owner: string; blockedBy: number[]; toolCalls: number }>;
}

async function enable() {
  await h.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: port } });
  await h.core.taskShare.settled();
  config = parseConfiguration((await h.call('taskShare:configuration', {})).json);
}

async function listWithTasks(titles: string[], title = 'Shared work') {
  const conversation = await h.newConversation(title);
  for (const t of titles) await h.call('tasks:add', { conversationId: conversation.id, title: t });
  return conversation.id;
}

beforeAll(async () => {
  server = await startScriptedServer();
  h = startChatCore(server);
  port = await freePort();
  await enable();
  client = await connectClient(config);
});

afterAll(async () => {
  await client?.close();
  await h?.close();
  await server?.close();
});

describe('the tools', () => {
  it('lists the tools with read-only ones annotated', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'add_task',
      'create_task_list',
      'get_task_list',
      'list_task_lists',
      'reorder_tasks',
      'update_task',
    ]);
    expect(byName.get('list_task_lists')!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('get_task_list')!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('update_task')!.annotations?.readOnlyHint).toBe(false);
  });

  it('reads lists across conversations with filters, and one list in detail', async () => {
    const id = await listWithTasks(['Collect receipts', 'File the return'], 'Taxes 2026');
    await h.call('tasks:update', { conversationId: id, taskId: 1, patch: { status: 'in_progress' } });
    const { lists } = await callJson<{
      lists: Array<{ conversationId: string; progress: string; inProgress: { id: number } | null }>;
    }>(client, 'list_task_lists', { text: 'taxes' });
    expect(lists).toHaveLength(1);
    expect(lists[0]).toMatchObject({
      conversationId: id,
      progress: '0/2',
      inProgress: { id: 1, title: 'Collect receipts' },
    });
    const none = await callJson<{ lists: unknown[] }>(client, 'list_task_lists', {
      text: 'taxes',
      status: 'completed',
    });
    expect(none.lists).toHaveLength(0);
    const list = await callJson<ListView>(client, 'get_task_list', { conversationId: id });
    expect(list.tasks.map((t) => [t.id, t.status, t.owner])).toEqual([
      [1, 'in_progress', 'main agent'],
      [2, 'pending', 'main agent'],
    ]);
  });

  it('updates, adds and reorders through the task rules, recorded as the client', async () => {
    const id = await listWithTasks(['One', 'Two', 'Three']);
    let list = await callJson<ListView & { added?: number }>(client, 'update_task', {
      conversationId: id,
      taskId: 2,
      status: 'completed',
    });
    expect(list.tasks[1].status).toBe('completed');
    list = await callJson<ListView>(client, 'update_task', { conversationId: id, taskId: 3, title: 'Three, renamed' });
    expect(list.tasks[2].title).toBe('Three, renamed');
    list = await callJson<ListView & { added?: number }>(client, 'add_task', {
      conversationId: id,
      title: 'Four',
      blockedBy: [1],
    });
    expect(list).toMatchObject({ added: 4 });
    expect(list.tasks[3]).toMatchObject({ id: 4, status: 'blocked', blockedBy: [1] });
    // The "blocked" filter finds this list, and not one whose tasks have no blocker.
    const unblocked = await listWithTasks(['Alone']);
    const blocked = await callJson<{ lists: Array<{ conversationId: string }> }>(client, 'list_task_lists', {
      status: 'blocked',
      limit: 500,
    });
    expect(blocked.lists.map((l) => l.conversationId)).toContain(id);
    expect(blocked.lists.map((l) => l.conversationId)).not.toContain(unblocked);
    list = await callJson<ListView>(client, 'reorder_tasks', { conversationId: id, order: [4, 1, 2, 3] });
    expect(list.tasks.map((t) => t.id)).toEqual([4, 1, 2, 3]);
    // The header sees the same list, and the history names the client.
    const header = (await h.call('tasks:get', { conversationId: id })).list!;
    expect(header.tasks.map((t) => t.title)).toEqual(['Four', 'One', 'Two', 'Three, renamed']);
    expect(header.tasks.map((t) => t.changedBy)).toEqual(['test-client', null, 'test-client', 'test-client']);
    // The user's own later change is theirs again.
    const after = (await h.call('tasks:update', { conversationId: id, taskId: 2, patch: { status: 'pending' } })).list!;
    expect(after.tasks.find((t) => t.id === 2)!.changedBy).toBeNull();
    const actors = h.core.tasks.store.eventsAfter(id, 0).map((e) => e.actor);
    expect(actors).toContain('mcp:test-client');
  });

  it('refuses what breaks the rules and writes nothing', async () => {
    const id = await listWithTasks(['First', 'Second']);
    await callJson(client, 'add_task', { conversationId: id, title: 'Third', blockedBy: [1] });
    const before = h.core.tasks.store.eventsAfter(id, 0).length;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['update_task', { conversationId: id, taskId: 3, status: 'in_progress' }, /blocked|block/i],
      ['update_task', { conversationId: id, taskId: 1, title: '   ' }, /title/i],
      ['update_task', { conversationId: id, taskId: 9, status: 'completed' }, /9/],
      ['update_task', { conversationId: id, taskId: 1 }, /status, a title or both/],
      ['add_task', { conversationId: id, title: 'Loop', blockedBy: [7] }, /7/],
      ['reorder_tasks', { conversationId: id, order: [1, 2] }, /once each/],
      ['create_task_list', { title: 'Empty', tasks: [] }, /at least one/],
      ['create_task_list', { title: 'Bad', tasks: ['ok', ''] }, /tasks\[1\]/],
    ];
    for (const [name, args, message] of cases) {
      const { text, isError } = resultText(await client.callTool({ name, arguments: args }));
      expect(isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text).toMatch(message);
    }
    expect(h.core.tasks.store.eventsAfter(id, 0)).toHaveLength(before);
  });

  it('creates a task list in a new conversation, filed in a folder', async () => {
    const made = await callJson<ListView>(client, 'create_task_list', {
      title: 'Release 2.0',
      folder: 'Work',
      tasks: ['Tag', 'Announce'],
    });
    expect(made).toMatchObject({ title: 'Release 2.0', folder: 'Work', progress: '0/2 completed' });
    const conversation = await h.call('conversations:get', { id: made.conversationId });
    expect(conversation.title).toBe('Release 2.0');
    const { lists } = await callJson<{ lists: Array<{ conversationId: string }> }>(client, 'list_task_lists', {
      folder: 'work',
    });
    expect(lists.map((l) => l.conversationId)).toContain(made.conversationId);
  });

  it('answers an unknown conversation and a deleted task clearly', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const name of ['get_task_list', 'update_task', 'add_task']) {
      const { text, isError } = resultText(
        await client.callTool({
          name,
          arguments: { conversationId: missing, taskId: 1, title: 'x', status: 'completed' },
        }),
      );
      expect(isError).toBe(true);
      expect(text).toContain(`There is no conversation ${missing}`);
    }
    const id = await listWithTasks(['Keep', 'Delete me']);
    await h.call('tasks:delete', { conversationId: id, taskId: 2 });
    const { text, isError } = resultText(
      await client.callTool({ name: 'update_task', arguments: { conversationId: id, taskId: 2, status: 'completed' } }),
    );
    expect(isError).toBe(true);
    expect(text).toMatch(/2/);
    expect((await h.call('tasks:get', { conversationId: id })).list!.tasks.map((t) => t.title)).toEqual(['Keep']);
  });

  it('lets the last writer win when the user and a client rename the same task, keeping both in the history', async () => {
    const id = await listWithTasks(['Draft']);
    await h.call('tasks:update', { conversationId: id, taskId: 1, patch: { title: 'Draft by the user' } });
    await callJson(client, 'update_task', { conversationId: id, taskId: 1, title: 'Draft by the agent' });
    expect((await h.call('tasks:get', { conversationId: id })).list!.tasks[0]).toMatchObject({
      title: 'Draft by the agent',
      changedBy: 'test-client',
    });
    const renames = h.core.tasks.store
      .eventsAfter(id, 0)
      .filter((e) => e.kind === 'updated')
      .map((e) => [e.actor, JSON.parse(e.after!).title]);
    expect(renames).toEqual([
      ['user', 'Draft by the user'],
      ['mcp:test-client', 'Draft by the agent'],
    ]);
    // Exports show who changed it: the Markdown note and the JSON events' actor.
    const md = await h.call('export:tasksText', { conversationId: id, format: 'md', scope: 'open' });
    expect(md.text).toContain('_(changed by test-client)_');
    const json = await h.call('export:tasksText', { conversationId: id, format: 'json', scope: 'open' });
    expect(json.text).toContain('"actor": "mcp:test-client"');
  });

  it('rejects an unknown tool with an MCP error and keeps serving', async () => {
    const result = await client.callTool({ name: 'drop_database', arguments: {} }).catch((error: Error) => error);
    const text = result instanceof Error ? result.message : resultText(result).text;
    expect(text).toMatch(/drop_database/);
    expect((await client.listTools()).tools.length).toBe(6);
  });

  it("tells the conversation's model about the client's changes on its next request", async () => {
    const id = await listWithTasks(['Alpha', 'Beta', 'Gamma']);
    // The user's own additions are told first; this request carries them.
    server.push({ text: 'Noted.' });
    await h.sendAndWait(id, 'Hello');
    await callJson(client, 'update_task', { conversationId: id, taskId: 2, status: 'completed' });
    await callJson(client, 'update_task', { conversationId: id, taskId: 3, title: 'Gamma, renamed' });
    server.push({ text: 'Seen.' });
    await h.sendAndWait(id, 'Go on');
    const system = server.streamRequests().at(-1)!.body.messages[0].content ?? '';
    expect(system).toContain('test-client (another agent, over MCP) marked task 2 completed and renamed task 3.');
    // The transcript has a quiet line per change; the model reads them only in its prompt.
    const notes = h
      .messages(id)
      .filter((m) => m.role === 'system')
      .map((m) => m.plumbing && plumbingLine(m.plumbing));
    expect(notes).toEqual([
      'Changed by test-client over MCP: marked task 2 completed.',
      'Changed by test-client over MCP: renamed task 3 to "Gamma, renamed".',
    ]);
    const sent = server
      .streamRequests()
      .at(-1)!
      .body.messages.slice(1)
      .map((m) => m.content ?? '');
    expect(sent.some((c) => c.includes('Changed by'))).toBe(false);
  });

  it('holds the transcript line back while a reply streams and writes it after the reply', async () => {
    const id = await listWithTasks(['Hold on']);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.setScript(async () => {
      await gate;
      return { text: 'Finished.' };
    });
    try {
      const from = h.events.length;
      await h.call('messages:send', { conversationId: id, content: 'Work on it' });
      await h.waitForEvent('chat:status', (s) => s.conversationId === id && s.running, { from });
      await callJson(client, 'update_task', { conversationId: id, taskId: 1, status: 'completed' });
      expect(h.messages(id).filter((m) => m.role === 'system')).toEqual([]);
      release();
      await h.waitIdle(id, from);
      const last = h.messages(id).slice(-2);
      expect(last.map((m) => [m.role, m.plumbing ? plumbingLine(m.plumbing) : m.content])).toEqual([
        ['assistant', 'Finished.'],
        ['system', 'Changed by test-client over MCP: marked task 1 completed.'],
      ]);
    } finally {
      server.setScript([]);
    }
  });
});

describe('resources', () => {
  it('sends resources/updated for a change made from the page', async () => {
    const id = await listWithTasks(['Watch me']);
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri));
    });
    await client.subscribeResource({ uri: `stepwise://tasks/${id}` });
    await h.call('tasks:update', { conversationId: id, taskId: 1, patch: { status: 'completed' } });
    expect(await updated).toBe(`stepwise://tasks/${id}`);
    const read = await client.readResource({ uri: `stepwise://tasks/${id}` });
    const first = read.contents[0];
    expect('text' in first ? JSON.parse(first.text).tasks[0].status : null).toBe('completed');
  });

  it('refuses a subscription to an unknown conversation', async () => {
    const error = await client.subscribeResource({ uri: 'stepwise://tasks/nope' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('There is no conversation nope');
  });
});

describe('guards and limits', () => {
  async function post(headers: Record<string, string>, body = '{"jsonrpc":"2.0","id":1,"method":"ping"}') {
    const response = await fetch(config.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });
    return { status: response.status, text: await response.text() };
  }

  it('answers 401 to a missing or wrong token', async () => {
    expect((await post({})).status).toBe(401);
    const wrong = await post({ Authorization: 'Bearer not-the-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toMatch(/wrong token/);
    const failed = await connectClient({ ...config, token: 'nope' }).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
  });

  it('answers 403 to any request with an Origin header, even with the token', async () => {
    const refused = await post({ Authorization: `Bearer ${config.token}`, Origin: `http://127.0.0.1:${port}` });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/Origin/);
  });

  it('answers 403 to a request for another host name (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { host: `evil.example:${port}`, authorization: `Bearer ${config.token}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('answers malformed JSON with a parse error and keeps serving', async () => {
    const broken = await post({ Authorization: `Bearer ${config.token}` }, '{"jsonrpc": "2.0", "id": 1,');
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.text).error.code).toBe(-32700);
    expect((await client.listTools()).tools.length).toBe(6);
  });

  it('limits each client to 50 calls a second, with a clear MCP error', async () => {
    const burst = await connectClient(config, 'burst-client');
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => burst.callTool({ name: 'list_task_lists', arguments: { limit: 1 } })),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.length - refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(/at most 50 calls a second/);
    await closeClient(burst);
    // The limit is the token's, across its sessions (taskShare.limits.test.ts): another
    // session of the same token is not a way round it, so nothing is asserted of it here.
  });

  it('answers every call of a 10,000-call burst and keeps serving', async () => {
    const burst = await connectClient(config, 'burst-raw');
    const sessionId = (burst.transport as StreamableHTTPClientTransport).sessionId!;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const statuses = new Map<number, number>();
    const one = (id: number) =>
      new Promise<void>((resolve, reject) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'list_task_lists', arguments: { limit: 1 } },
        });
        const req = http.request(
          config.url,
          {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${config.token}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-session-id': sessionId,
              'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
            },
          },
          (res) => {
            statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => one(i + 1)));
    agent.destroy();
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect((statuses.get(200) ?? 0) + (statuses.get(429) ?? 0)).toBe(10_000);
    await closeClient(burst);
    // Still serving: the endpoint listens, and the app answers its own calls. (Another
    // session of the same token shares the burst's limit, so it is not asked here.)
    expect(h.core.taskShare.status()).toMatchObject({ listening: true, error: null });
    expect((await h.call('app:info', {})).version).toBeTruthy();
  }, 120_000);

  it("keeps 16 clients at once; a 17th takes the longest-idle one's place", async () => {
    // Its own token, so its own limits: the burst before it spent the old token's calls and
    // time budget for the next second, which its 17 sessions and calls would run into.
    await h.call('taskShare:regenerateToken', {});
    config = parseConfiguration((await h.call('taskShare:configuration', {})).json);
    await client.close().catch(() => {});
    client = await connectClient(config);
    expect(h.core.taskShare.status().clients).toBe(1);
    const extra: Client[] = [];
    const connected = h.core.taskShare.status().clients;
    for (let i = connected; i < 16; i++) extra.push(await connectClient(config, `extra-${i}`));
    expect(h.core.taskShare.status().clients).toBe(16);
    // Every client has been heard since, except the first extra one: it is the one to go.
    for (const c of [client, ...extra.slice(1)]) await c.ping();
    const seventeenth = await connectClient(config, 'one-more');
    expect(h.core.taskShare.status().clients).toBe(16);
    expect((await seventeenth.listTools()).tools.length).toBe(6);
    const evicted = await extra[0].listTools().catch((e: Error) => e);
    expect(evicted).toBeInstanceOf(Error);
    expect(String(evicted)).toMatch(/Unknown or ended session/);
    expect((await client.listTools()).tools.length).toBe(6);
    await Promise.all([...extra.slice(1), seventeenth].map((c) => closeClient(c)));
    await extra[0].close();
  });
});

describe('turning sharing off', () => {
  it('disconnects every client at once and stops listening', async () => {
    const watcher = await connectClient(config, 'watcher');
    await h.call('settings:update', { patch: { shareTaskLists: false } });
    await h.core.taskShare.settled();
    expect(h.core.taskShare.status()).toMatchObject({ enabled: false, listening: false, clients: 0 });
    // The Settings section heard it stop.
    expect(h.eventsOf('taskShare:status').at(-1)).toMatchObject({ enabled: false, listening: false, clients: 0 });
    const after = await watcher.listTools().catch((e: Error) => e);
    expect(after).toBeInstanceOf(Error);
    await watcher.close().catch(() => {});
    // On again: a new client connects with the same configuration.
    await enable();
    client = await connectClient(config);
    expect((await client.listTools()).tools.length).toBe(6);
  });

  it('a regenerated token disconnects clients and refuses the old one', async () => {
    const old = config;
    await h.call('taskShare:regenerateToken', {});
    config = parseConfiguration((await h.call('taskShare:configuration', {})).json);
    expect(config.token).not.toBe(old.token);
    expect(await connectClient(old).catch((e: Error) => e)).toBeInstanceOf(Error);
    client = await connectClient(config);
    expect((await client.listTools()).tools.length).toBe(6);
  });
});
