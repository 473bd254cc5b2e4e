// A task tool call to the task header changing in Chromium's DOM, against its floor:
// the same `tasks:changed` frame relayed bare over a WebSocket to a DOM write. The app
// side is the real path — the tool registry and task core in the browser host's process,
// the bus, the host's WebSocket, the renderer's task header — with the host started in
// this process so the tool call's start is timed where it happens. Both sides are timed
// from the call (or send) in Node to a MutationObserver seeing the new text in the page,
// on the shared wall clock (performance.timeOrigin + now() in both).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { registerRawImports } from './rawImports';
import { interleave, ms, percentile, type Bench, type BenchRow } from './benchKit';
import { launchChromium, ROOT } from '../tests/e2e/support/app';

const ROUNDS = Number(process.env.STEPWISE_BENCH_DOM_ROUNDS ?? 200);
/** The issue's workload: a 64-task list (STEPWISE_BENCH_DOM_TASKS to change it). */
const TASKS = Number(process.env.STEPWISE_BENCH_DOM_TASKS ?? 64);
const TITLE = 'Task DOM bench';
const now = () => performance.timeOrigin + performance.now();

/** The list after `round` steps: one task in progress, whose title names the round (the header shows it). */
function listAt(round: number) {
  const current = round % TASKS;
  return Array.from({ length: TASKS }, (_, i) => ({
    id: i + 1,
    title: i === current ? `Working on round ${round}` : `Step ${i + 1} of the plan`,
    status: i < current ? 'completed' : i === current ? 'in_progress' : 'pending',
  }));
}

// In-page code is passed as text: tsx would otherwise wrap named functions in a helper
// the page does not have. `__arm(text, selector)` resolves `__seen` with the page's clock
// when the element first contains `text`.
const OBSERVER = `(() => {
  window.__seen = 0;
  window.__want = null;
  // Armed once the page has drawn the previous change: a model's tool calls are seconds
  // apart, so each one meets a page at rest, not one still painting the last round.
  window.__arm = (text, selector) =>
    new Promise((armed) =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          window.__seen = 0;
          window.__want = { text, selector };
          window.__done = new Promise((resolve) => (window.__resolve = resolve));
          armed();
        }),
      ),
    );
  new MutationObserver(() => {
    const want = window.__want;
    if (want && !window.__seen && document.querySelector(want.selector)?.textContent.includes(want.text)) {
      window.__seen = performance.timeOrigin + performance.now();
      window.__resolve(window.__seen);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

const bench: Bench = {
  title: 'Task tool call → task header changed in the DOM (Chromium, browser host)',
  async run(): Promise<BenchRow[]> {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const { startHost } = await import('../src/main/host/server');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-taskdom-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    const host = await startHost({ core, rendererDir: path.join(ROOT, 'out/renderer'), port: 0 });
    // The floor: a bare WebSocket server whose page handler writes the task's text into the DOM.
    const relay = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => relay.once('listening', () => resolve()));
    const relayPort = (relay.address() as { port: number }).port;
    const browser = await launchChromium();
    const bareBrowser = await launchChromium();
    try {
      const conversationId = core.conversations.create(TITLE).id;
      // Review off: a plan holds at most 50 tasks (the issue's list has 64), and with review on
      // an unapproved list shows as the review card, not the header measured here.
      await core.dispatch('plan:setMode', { conversationId, mode: 'off' });
      core.messages.insert({ conversationId, role: 'user', content: 'Plan it' });
      core.messages.insert({ conversationId, role: 'assistant', content: 'Planning.' });
      const ctx = { conversationId, agentId: 'main', signal: new AbortController().signal };
      const callTool = async (round: number) => {
        const result = await core.tools.run('manage_todo_list', JSON.stringify({ todoList: listAt(round) }), ctx);
        if (!result.ok || result.content.startsWith('Error')) throw new Error(result.content);
      };
      let frame = '';
      core.bus.subscribe((event, payload) => {
        if (event === 'tasks:changed') frame = JSON.stringify({ event, payload });
      });
      await callTool(0);

      const page = await browser.newPage();
      await page.goto(host.url);
      await page.getByRole('link', { name: TITLE }).click();
      await page.getByRole('region', { name: 'Tasks' }).getByText('Working on round 0').first().waitFor();
      await page.evaluate(OBSERVER);
      // The app's page only talks to its host (its CSP says so): the floor gets a blank page in a
      // browser of its own, so that neither page is a background tab.
      const bare = await bareBrowser.newPage();
      await bare.evaluate(OBSERVER);
      await bare.evaluate(`(() => {
        const out = document.createElement('div');
        out.id = 'bare-relay';
        document.body.append(out);
        const ws = new WebSocket('ws://127.0.0.1:${relayPort}');
        ws.onmessage = (message) => {
          const { payload } = JSON.parse(message.data);
          const task = payload.list.tasks.find((t) => t.status === 'in_progress');
          out.textContent = task.title;
        };
        window.__relay = new Promise((resolve) => (ws.onopen = resolve));
      })()`);
      await bare.evaluate('window.__relay');
      const [socket] = relay.clients;

      let round = 0;
      const WARMUP = 10;
      const samples = { app: [] as number[], floor: [] as number[] };
      const seen = async (on: typeof page, text: string) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`"${text}" did not reach the page within 10 s`)), 10_000);
        });
        return Promise.race([on.evaluate('window.__done') as Promise<number>, timeout]).finally(() => clearTimeout(timer));
      };
      await interleave(
        {
          app: async () => {
            const r = ++round;
            if (r % 50 === 0) process.stderr.write(`  [taskDom] round ${r / 2}\n`);
            await page.evaluate(`window.__arm(${JSON.stringify(`Working on round ${r}`)}, 'section.task-header')`);
            const start = now();
            await callTool(r);
            const took = (await seen(page, `round ${r}`)) - start;
            samples.app.push(took);
            return took;
          },
          floor: async () => {
            const r = ++round;
            const text = `Working on round ${r}`;
            await bare.evaluate(`window.__arm(${JSON.stringify(text)}, '#bare-relay')`);
            const start = now();
            socket.send(frame.replace(/Working on round \d+/, text));
            const took = (await seen(bare, text)) - start;
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
          measure: `manage_todo_list call → task header text in the DOM (${TASKS}-task list)`,
          rounds: app.length,
          'app p50': ms(percentile(app, 50)),
          'app p95': ms(percentile(app, 95)),
          'app min': ms(Math.min(...app)),
          floor: 'same frame, bare WebSocket → DOM write',
          'floor p50': ms(percentile(floor, 50)),
          'floor p95': ms(percentile(floor, 95)),
          'floor min': ms(Math.min(...floor)),
          'ratio p95': `${(percentile(app, 95) / percentile(floor, 95)).toFixed(2)}×`,
          goal: 'p95 ≤ 8 ms',
        },
      ];
    } finally {
      await browser.close();
      await bareBrowser.close();
      relay.close();
      await host.close();
      core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
