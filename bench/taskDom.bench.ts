// A task tool call to the task header changing in Chromium's DOM, against its floor:
// the same `tasks:changed` frame relayed bare over a WebSocket to a DOM write. The app
// side is the real path — the tool registry and task core in the browser host's process,
// the bus, the host's WebSocket, the renderer's task header — with the host started in
// this process so the tool call's start is timed where it happens. Both sides are timed
// from the call (or send) in Node to a MutationObserver seeing the new text in the page,
// on this process's clock (each page's offset taken off: pageClockOffset).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { registerRawImports } from './rawImports';
import { interleave, ms, percentile, type Bench, type BenchRow } from './benchKit';
import { launchChromium, ROOT } from '../tests/e2e/support/app';
import { profileNode, profilePage, report, type Profiler } from './support/cpuProfile';
import { OBSERVER, pageClockOffset, seenAt } from './support/domObserver';

const ROUNDS = Number(process.env.STEPWISE_BENCH_DOM_ROUNDS ?? 200);
/** The issue's workload: a 64-task list (STEPWISE_BENCH_DOM_TASKS to change it). */
const TASKS = Number(process.env.STEPWISE_BENCH_DOM_TASKS ?? 64);
/**
 * Print where the app's time goes: write (call → the core emits), send (→ the host has sent the
 * frame, after the core's own subscribers), wire (→ the page's message event; across two
 * processes' clocks), page (→ DOM).
 */
const STAGES = process.env.STEPWISE_BENCH_DOM_STAGES === '1';
/** A directory: CPU profiles of the host's process and the app's page over the rounds go there. */
const PROFILE_DIR = process.env.STEPWISE_BENCH_DOM_PROFILE;
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

// For STAGES: the moment the app's socket receives the frame with the wanted text, before
// any handler of the app runs (this listener is added in the socket's constructor).
const ARRIVAL = `(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (message) => {
        const want = window.__want;
        if (want && !window.__arrived && String(message.data).includes(want.text)) {
          window.__arrived = performance.timeOrigin + performance.now();
        }
      });
    }
  };
})()`;

const bench: Bench = {
  title: 'Task tool call → task header changed in the DOM (Chromium, browser host)',
  async run(): Promise<BenchRow[]> {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const { startHost } = await import('../src/main/host/server');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-taskdom-'));
    const core = createNodeCore({
      dataDir: path.join(root, 'data'),
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    // Subscribed before the host: the moment the host's own listener starts (after the core's).
    let hostStartedAt = 0;
    core.bus.subscribe((event) => event === 'tasks:changed' && (hostStartedAt = now()));
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
      let sentAt = 0;
      let emittedAt = 0;
      // Typed listeners run before every subscriber: this is the moment the core emits.
      core.bus.on('tasks:changed', () => (emittedAt = now()));
      // Subscribed after the host (and the core's own subscribers): runs once the host has sent the frame.
      core.bus.subscribe((event, payload) => {
        if (event !== 'tasks:changed') return;
        sentAt = now();
        frame = JSON.stringify({ event, payload });
      });
      await callTool(0);

      const page = await browser.newPage();
      if (STAGES) await page.addInitScript(ARRIVAL);
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
      // Each page's times, on this process's clock.
      const offsets = new Map([
        [page, await pageClockOffset(page, now)],
        [bare, await pageClockOffset(bare, now)],
      ]);
      const local = (on: typeof page, at: number) => at - (offsets.get(on) ?? 0);

      let round = 0;
      const WARMUP = 10;
      const samples = { app: [] as number[], floor: [] as number[] };
      const stages = {
        write: [] as number[],
        send: [] as number[],
        'send (host)': [] as number[],
        wire: [] as number[],
        page: [] as number[],
      };
      const profilers: [string, Profiler][] = [];
      if (PROFILE_DIR) {
        profilers.push(['host', await profileNode()]);
        profilers.push(['page', await profilePage(await page.context().newCDPSession(page))]);
      }
      const seen = (on: typeof page, text: string) => seenAt(on, text, offsets.get(on) ?? 0, 10_000);
      await interleave(
        {
          app: async () => {
            const r = ++round;
            if (r % 50 === 0) process.stderr.write(`  [taskDom] round ${r / 2}\n`);
            await page.evaluate(`window.__arm(${JSON.stringify(`Working on round ${r}`)}, 'section.task-header')`);
            const start = now();
            await callTool(r);
            const shown = await seen(page, `round ${r}`);
            const took = shown - start;
            samples.app.push(took);
            if (STAGES) {
              const arrived = local(page, (await page.evaluate('window.__arrived')) as number);
              stages.write.push(emittedAt - start);
              stages.send.push(sentAt - emittedAt);
              stages['send (host)'].push(sentAt - hostStartedAt);
              stages.wire.push(arrived - sentAt);
              stages.page.push(shown - arrived);
            }
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
      for (const [name, profiler] of profilers) report(PROFILE_DIR ?? '', `taskDom-${name}`, await profiler.stop());
      const app = samples.app.slice(WARMUP);
      const floor = samples.floor.slice(WARMUP);
      const stageRows: BenchRow[] = Object.entries(STAGES ? stages : {}).map(([stage, all]) => {
        const kept = all.slice(WARMUP);
        return {
          measure: `  stage: ${stage}`,
          rounds: kept.length,
          'app p50': ms(percentile(kept, 50)),
          'app p95': ms(percentile(kept, 95)),
          'app min': ms(Math.min(...kept)),
        };
      });
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
        ...stageRows,
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
