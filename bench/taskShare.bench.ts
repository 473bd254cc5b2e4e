// An external agent's MCP `update_task` call to the task header changing in Chromium's
// DOM, next to its floor: a bare MCP SDK round trip (the same Client and Streamable HTTP
// transport against a bare McpServer with a no-op tool) on the same machine. The app side
// is the real path: the SDK client, the task-share endpoint (token, limits), the one task
// writer, the bus, the browser host's WebSocket and the renderer's header. Times run from
// the call in Node to a MutationObserver seeing the new title (shared wall clock).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { registerRawImports } from './rawImports';
import { interleave, ms, percentile, type Bench, type BenchRow } from './benchKit';
import { launchChromium, ROOT } from '../tests/e2e/support/app';
import { callJson, closeClient, connectClient, freePort, parseConfiguration } from '../tests/support/taskShareClient';

const ROUNDS = Number(process.env.STEPWISE_BENCH_SHARE_ROUNDS ?? 200);
const TITLE = 'Task share bench';
const now = () => performance.timeOrigin + performance.now();
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** `promise`, or an error naming `what` after 10 s: a change that never shows must fail the bench, not hang it. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within 10 s`)), 10_000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const OBSERVER = `(() => {
  window.__arm = (text) =>
    new Promise((armed) =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          window.__want = text;
          window.__done = new Promise((resolve) => (window.__resolve = resolve));
          armed();
        }),
      ),
    );
  new MutationObserver(() => {
    const want = window.__want;
    if (want && document.querySelector('section.task-header')?.textContent.includes(want)) {
      window.__want = null;
      window.__resolve(performance.timeOrigin + performance.now());
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** A bare MCP server over Streamable HTTP: one session, one tool that does nothing. */
async function startBareServer() {
  const mcp = new McpServer({ name: 'bare', version: '1.0.0' });
  mcp.registerTool('noop', { description: 'Does nothing.' }, () => ({ content: [{ type: 'text', text: '{}' }] }));
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
  });
  await mcp.connect(transport);
  const server = http.createServer((req, res) => void transport.handleRequest(req, res));
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    // A client left connected (a round that failed) would keep close() waiting for ever.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const bench: Bench = {
  title: 'MCP update_task → task header changed in the DOM (Chromium, browser host)',
  async run(): Promise<BenchRow[]> {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const { startHost } = await import('../src/main/host/server');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-share-'));
    const core = createNodeCore({
      dataDir: path.join(root, 'data'),
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    const host = await startHost({ core, rendererDir: path.join(ROOT, 'out/renderer'), port: 0 });
    const bare = await startBareServer();
    const browser = await launchChromium();
    const clients: Awaited<ReturnType<typeof connectClient>>[] = [];
    try {
      const port = await freePort();
      await core.dispatch('settings:update', { patch: { shareTaskLists: true, taskSharePort: port } });
      await core.taskShare.settled();
      const configured = await core.dispatch('taskShare:configuration', {});
      if (!configured.ok) throw new Error(configured.error.message);
      const client = await connectClient(
        parseConfiguration((configured.value as { json: string }).json),
        'bench-client',
      );
      const floorClient = await connectClient({ url: bare.url, token: 'unused' }, 'bench-floor');
      clients.push(client, floorClient);

      const conversationId = core.conversations.create(TITLE).id;
      // Review off: with the default (before tools that change things) a list nobody approved
      // shows as the review card ("Review the plan"), not the task header measured here.
      await core.dispatch('plan:setMode', { conversationId, mode: 'off' });
      core.messages.insert({ conversationId, role: 'user', content: 'Plan it' });
      await core.dispatch('tasks:add', { conversationId, title: 'Working on round 0' });
      await core.dispatch('tasks:add', { conversationId, title: 'Next step' });
      await core.dispatch('tasks:update', { conversationId, taskId: 1, patch: { status: 'in_progress' } });

      const page = await browser.newPage();
      await page.goto(host.url);
      await page.getByRole('link', { name: TITLE }).click();
      await page
        .getByRole('region', { name: 'Tasks' })
        .getByText('Working on round 0')
        .first()
        .waitFor({ timeout: 30_000 });
      await page.evaluate(OBSERVER);

      let round = 0;
      let lastCall = 0;
      const WARMUP = 10;
      const samples = { app: [] as number[], floor: [] as number[] };
      await interleave(
        {
          app: async () => {
            const text = `Working on round ${++round}`;
            // The endpoint allows 50 calls a second per client: stay under it (not timed).
            const wait = lastCall + 25 - performance.now();
            if (wait > 0) await sleep(wait);
            await page.evaluate(`window.__arm(${JSON.stringify(text)})`);
            const start = now();
            lastCall = performance.now();
            await callJson(client, 'update_task', { conversationId, taskId: 1, title: text });
            const shown = (await within(
              page.evaluate('window.__done'),
              `"${text}" did not reach the header`,
            )) as number;
            const took = shown - start;
            samples.app.push(took);
            return took;
          },
          floor: async () => {
            const start = now();
            await floorClient.callTool({ name: 'noop', arguments: {} });
            const took = now() - start;
            samples.floor.push(took);
            return took;
          },
        },
        { rounds: ROUNDS, warmup: WARMUP },
      );
      const app = samples.app.slice(WARMUP);
      const floor = samples.floor.slice(WARMUP);
      return [
        {
          measure: 'MCP update_task (title) → task header text in the DOM',
          rounds: app.length,
          'app p50': ms(percentile(app, 50)),
          'app p95': ms(percentile(app, 95)),
          'app min': ms(Math.min(...app)),
          floor: 'bare MCP SDK round trip (no-op tool, Streamable HTTP)',
          'floor p50': ms(percentile(floor, 50)),
          'floor p95': ms(percentile(floor, 95)),
          'floor min': ms(Math.min(...floor)),
          'ratio p95': `${(percentile(app, 95) / percentile(floor, 95)).toFixed(2)}×`,
          goal: 'p95 ≤ 15 ms',
        },
      ];
    } finally {
      for (const client of clients) await closeClient(client);
      await browser.close();
      await bare.close();
      await host.close();
      await core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
