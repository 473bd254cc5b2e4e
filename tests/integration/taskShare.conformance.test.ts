// The official MCP conformance runner's whole server suite, in one call, against the
// task-share endpoint (through a proxy that adds the token: the runner sends no headers).
// Stepwise implements only part of what the suite covers (no prompts, no sampling), so
// scenarios may fail; what must hold is that the runner is never locked out: no 503,
// however many sessions it leaves open.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { freePort, parseConfiguration } from '../support/taskShareClient';
import { startTokenProxy } from '../support/tokenProxy';
import { makeTempDir, removeDir } from '../support/tempDir';

const RUNNER = path.resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

let server: ScriptedServer;
let h: ChatHarness;
let outDir: string;

beforeAll(async () => {
  server = await startScriptedServer();
  h = startChatCore(server);
  outDir = makeTempDir('stepwise-conformance-');
  await h.call('settings:update', { patch: { shareTaskLists: true, taskSharePort: await freePort() } });
  await h.core.taskShare.settled();
});

afterAll(async () => {
  await h?.close();
  await server?.close();
  removeDir(outDir);
});

describe('the MCP conformance runner', () => {
  it('runs its whole server suite in one call without ever being refused a session', async () => {
    const config = parseConfiguration((await h.call('taskShare:configuration', {})).json);
    const proxy = await startTokenProxy(config);
    try {
      const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
        execFile(
          process.execPath,
          [RUNNER, 'server', '--url', proxy.url, '--suite', 'all', '-o', outDir],
          { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) =>
            resolve({ code: error ? ((error.code as number | null) ?? null) : 0, out: stdout + stderr }),
        );
      });
      // The whole suite ran (every scenario has a line in the summary) …
      const total = /Total: (\d+) passed, (\d+) failed/.exec(run.out);
      expect(total, run.out.slice(-2000)).not.toBeNull();
      expect(Number(total![1]) + Number(total![2])).toBeGreaterThanOrEqual(30);
      expect(run.out).toMatch(/✓ server-initialize: 1 passed, 0 failed/);
      expect(run.out).toMatch(/✓ tools-list: 1 passed, 0 failed/);
      // … and no request of it was refused for want of a place.
      expect(proxy.statuses.length).toBeGreaterThan(30);
      expect(proxy.statuses.filter((s) => s === 503)).toEqual([]);
      expect(run.out).not.toMatch(/Too many clients/);
    } finally {
      await proxy.close();
    }
  }, 300_000);
});
