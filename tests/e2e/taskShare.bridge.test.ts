// The built stdio bridge's guarantees: it ends its endpoint session however its host ends
// it (SIGTERM, SIGINT, stdin closed); on a database of an older schema it says what to do
// in one MCP error and exits 0, and works once the app has upgraded it; and after a crash
// its token never goes to whatever listens on the old port (a squatter after kill -9).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { makeTempDir, removeDir } from '../support/tempDir';
import { freePort } from '../support/taskShareClient';
import { seedShareLists } from '../support/shareLists';
import { spawnBridge, toolText } from '../support/stdioBridge';
import { connectHost, startHostChild } from '../support/hostChild';

let dir: string;

beforeAll(() => {
  dir = makeTempDir('stepwise-bridge-');
});
afterAll(() => removeDir(dir));

async function sharingCore(dataDir: string) {
  const core = createNodeCore({ dataDir, env: {} });
  const port = await freePort();
  const updated = await core.dispatch('settings:update', { patch: { shareTaskLists: true, taskSharePort: port } });
  if (!updated.ok) throw new Error(updated.error.message);
  await core.taskShare.settled();
  return { core, port };
}

describe('ending the bridge', () => {
  for (const how of ['SIGTERM', 'SIGINT', 'stdin closed'] as const) {
    it(`ends its session at the endpoint on ${how}, exiting 0`, async () => {
      const dataDir = path.join(dir, `end-${how.replace(' ', '-')}`);
      const { core } = await sharingCore(dataDir);
      try {
        const bridge = spawnBridge(dataDir);
        expect((await bridge.initialize()).result).toBeDefined();
        const listed = await bridge.callTool('list_task_lists', {});
        expect(JSON.parse(toolText(listed))).toEqual({ lists: [] });
        expect(core.taskShare.status().clients).toBe(1);
        if (how === 'stdin closed') bridge.child.stdin.end();
        else bridge.child.kill(how);
        expect(await bridge.exited).toEqual({ code: 0, signal: null });
        // It ended its session (DELETE) before it exited: the place is free at once.
        expect(core.taskShare.status().clients).toBe(0);
      } finally {
        await core.close();
      }
    });
  }
});

describe('a database of the previous schema', () => {
  it('says "Open Stepwise once to upgrade this database" while Stepwise is not running, then serves once it has', async () => {
    const dataDir = path.join(dir, 'old-schema');
    // Schema 16: before tasks.changed_by, what the previous release left.
    const old = openDatabase(dataDir, { targetVersion: 16 }).db;
    seedShareLists(old, 1, 3, () => 'Old work');
    old.close();

    const bridge = spawnBridge(dataDir);
    const hello = await bridge.initialize();
    expect(hello.result?.instructions).toMatch(/Open Stepwise once to upgrade this database/);
    const tools = await bridge.request('tools/list');
    expect(tools.error?.message).toMatch(/Open Stepwise once to upgrade this database/);
    const call = await bridge.callTool('list_task_lists', {});
    expect(call.error?.message).toMatch(/Open Stepwise once to upgrade this database/);
    bridge.child.stdin.end();
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    // Nothing was changed: still schema 16.
    const still = openDatabase(dataDir, { readonly: true }).db;
    expect(still.pragma('user_version', { simple: true })).toBe(16);
    still.close();

    // Stepwise opened once (with sharing on): the same bridge forwards to it.
    const { core } = await sharingCore(dataDir);
    try {
      const forwarded = spawnBridge(dataDir);
      await forwarded.initialize();
      const { lists } = JSON.parse(toolText(await forwarded.callTool('list_task_lists', {}))) as {
        lists: Array<{ title: string; progress: string }>;
      };
      expect(lists).toEqual([expect.objectContaining({ title: 'Old work' })]);
      forwarded.child.stdin.end();
      expect((await forwarded.exited).code).toBe(0);
    } finally {
      await core.close();
    }
    // And read-only, with Stepwise closed again.
    const reader = spawnBridge(dataDir);
    await reader.initialize();
    const read = JSON.parse(toolText(await reader.callTool('list_task_lists', { text: 'OLD' }))) as {
      lists: Array<{ title: string }>;
    };
    expect(read.lists.map((l) => l.title)).toEqual(['Old work']);
    reader.child.stdin.end();
    expect((await reader.exited).code).toBe(0);
  });
});

describe('after a crash', () => {
  it('never sends the token to a process that took the port, and the next start removes the stale file', async () => {
    const dataDir = path.join(dir, 'crashed');
    const port = await freePort();
    const host = await startHostChild(dataDir, {});
    const api = await connectHost(host);
    await api.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: port } });
    expect(await api.call('taskShare:status', {})).toMatchObject({ listening: true });
    api.close();
    const discoveryFile = path.join(dataDir, 'task-share.json');
    const { token } = JSON.parse(fs.readFileSync(discoveryFile, 'utf8')) as { token: string; pid: number };
    await host.kill();
    expect(fs.existsSync(discoveryFile)).toBe(true);

    // A squatter takes the port and answers anything, recording what it is sent.
    const seen: string[] = [];
    const squatter = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ proof: 'anything' }));
      });
    });
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      // The file names a dead process: the bridge serves from the database.
      const first = spawnBridge(dataDir);
      await first.initialize();
      expect(JSON.parse(toolText(await first.callTool('list_task_lists', {})))).toEqual({ lists: [] });
      const write = await first.callTool('add_task', { conversationId: 'x', title: 'y' });
      expect(toolText(write)).toMatch(/Stepwise is not running; task lists are read-only/);
      first.child.stdin.end();
      expect((await first.exited).code).toBe(0);

      // Even naming a live process (this one), the squatter cannot answer the challenge.
      const stale = JSON.parse(fs.readFileSync(discoveryFile, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(discoveryFile, JSON.stringify({ ...stale, pid: process.pid }), { mode: 0o600 });
      const second = spawnBridge(dataDir);
      await second.initialize();
      expect(JSON.parse(toolText(await second.callTool('list_task_lists', {})))).toEqual({ lists: [] });
      second.child.stdin.end();
      expect((await second.exited).code).toBe(0);

      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((line) => line.startsWith('GET /stepwise-identity?nonce='))).toBe(true);
      expect(seen.filter((line) => line.includes(token))).toEqual([]);

      // The next start cannot listen (the squatter holds the port) and removes the stale file.
      const again = await startHostChild(dataDir, {});
      try {
        const api2 = await connectHost(again);
        const status = await api2.call('taskShare:status', {});
        expect(status).toMatchObject({ listening: false, error: expect.stringMatching(/in use/) });
        expect(fs.existsSync(discoveryFile)).toBe(false);
        api2.close();
      } finally {
        await again.kill();
      }
    } finally {
      await new Promise<void>((resolve) => {
        squatter.close(() => resolve());
        squatter.closeAllConnections();
      });
    }
  });
});
