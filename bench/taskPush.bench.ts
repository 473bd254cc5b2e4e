// A task change from the model to the screen, the host as a separate process (issue 39): the
// scripted model server (in this process) answers a send with a `manage_todo_list` call,
// held (headers sent) until the page is at rest, as it is when a model answers seconds
// after a send; the time runs from the moment it writes that call to a MutationObserver seeing
// the new task in the task header of the app's page in Chromium. On the way: the host's
// SDK request and SSE reading, the agent loop, the tool registry and task core, the bus,
// the host's WebSocket, the page's render. The floor, interleaved in the same run: the same
// `tasks:changed` frame relayed bare over a WebSocket from this process to a page that
// writes the task's title into its DOM. Both are timed on this process's clock: each page's
// times have its clock's offset taken off (pageClockOffset). Goal: p95 ≤ 2.5× the floor's.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { interleave, ms, percentile, type Bench, type BenchRow } from './benchKit';
import { launchChromium, makeDataDir, ROOT, startHostProcess } from '../tests/e2e/support/app';
import { seedPlanReviewOff } from '../tests/support/tempDir';
import { startScriptedServer } from '../tests/support/scriptedServer';
import { openHostSocket } from './support/hostSocket';
import { profilePage, report } from './support/cpuProfile';
import { OBSERVER, pageClockOffset, seenAt } from './support/domObserver';

const ROUNDS = Number(process.env.STEPWISE_BENCH_PUSH_ROUNDS ?? 100);
/** A directory: a CPU profile of the app's page over the rounds goes there. */
const PROFILE_DIR = process.env.STEPWISE_BENCH_PUSH_PROFILE;
const TASKS = 64;
const TITLE = 'Task push bench';
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

/** The whole streamed answer in one write: the tool call, its finish, [DONE]. */
function toolCallAnswer(round: number): string {
  const base = { id: 'chatcmpl-push', object: 'chat.completion.chunk', created: 0, model: 'scripted' };
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const call = {
    index: 0,
    id: `call_${round}`,
    type: 'function',
    function: { name: 'manage_todo_list', arguments: JSON.stringify({ todoList: listAt(round) }) },
  };
  return (
    chunk({ role: 'assistant', content: '' }, null) +
    chunk({ tool_calls: [call] }, null) +
    chunk({}, 'tool_calls') +
    'data: [DONE]\n\n'
  );
}

// When the app's socket receives the frames with the wanted text, before any handler of
// the app runs (this listener is added in the socket's constructor): the first one (the
// streamed tool call, `messages:streamed`) and the task list's (`tasks:changed`). The
// second is dispatched only once the page has handled the frames before it.
const ARRIVAL = `(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (message) => {
        const want = window.__want;
        const data = String(message.data);
        if (!want || !data.includes(want.text)) return;
        const at = performance.timeOrigin + performance.now();
        if (!window.__first) window.__first = at;
        if (!window.__arrived && data.includes('"event":"tasks:changed"')) window.__arrived = at;
      });
    }
  };
})()`;

const STAGE_NAMES = {
  first: "model writes → the call's first frame (messages:streamed) at the page",
  host: 'model writes → the tasks:changed frame dispatched in the page',
  page: 'the page: tasks:changed → DOM',
};

const bench: Bench = {
  title: 'Model writes a task tool call → task header in the DOM (host as a separate process)',
  async run(): Promise<BenchRow[]> {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const root = makeDataDir();
    const dataDir = path.join(root, 'data');
    seedPlanReviewOff(dataDir);
    // The model's answer to each send: the round's tool call, held until the bench lets it
    // go (a model answers seconds after a send, when the page is at rest), then a reply.
    let round = 0;
    let requested: (release: () => void) => void = () => {};
    const nextRequest = () => new Promise<() => void>((resolve) => (requested = resolve));
    const server = await startScriptedServer({
      script: (request) => {
        const last = request.body.messages?.at(-1) as { role?: string } | undefined;
        if (!request.body.stream) return { text: 'Title' };
        if (last?.role === 'tool') return { text: `Done ${round}.` };
        let release = () => {};
        const gate = new Promise<void>((resolve) => (release = resolve));
        requested(release);
        return { raw: [{ until: gate }, toolCallAnswer(round)] };
      },
    });
    const host = await startHostProcess({
      dataDir,
      // A model with a window of a million tokens: every round's call (a 64-task list) stays in
      // the history, and a 32k window would compact it every few rounds.
      env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-bench', STEPWISE_MODEL: 'gpt-4.1' },
      startTimeoutMs: 60_000,
    });
    const socket = await openHostSocket(host);
    // A second client keeps the host's push of a task change as sent, the floor's frame.
    let frame = '';
    const listener = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
      headers: { Origin: `http://127.0.0.1:${host.port}` },
    });
    listener.on('message', (data) => {
      const text = String(data);
      if (!frame && text.includes('"tasks:changed"') && text.includes('Working on round 0')) frame = text;
    });
    await new Promise((resolve, reject) => listener.once('open', resolve).once('error', reject));
    const relay = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => relay.once('listening', () => resolve()));
    const relayPort = (relay.address() as { port: number }).port;
    const browser = await launchChromium();
    const bareBrowser = await launchChromium();
    try {
      const { id: conversationId } = (await socket.call('conversations:create', { title: TITLE })) as { id: string };
      await socket.call('plan:setMode', { conversationId, mode: 'off' });
      const page = await browser.newPage();
      await page.addInitScript(ARRIVAL);
      await page.goto(host.url);
      await page.getByRole('link', { name: TITLE }).click();
      const answered = (r: number) => page.getByText(`Done ${r}.`).first().waitFor({ timeout: 30_000 });
      // Sent as a user sends, from the page: the page is the host's only client during the rounds.
      const composer = page.getByRole('textbox', { name: 'Message' });
      const send = async (text: string) => {
        await composer.fill(text);
        await composer.press('Enter');
      };
      const first = nextRequest();
      await send('Round 0');
      (await first)();
      await page.getByRole('region', { name: 'Tasks' }).getByText('Working on round 0').first().waitFor();
      await answered(0);
      await page.evaluate(OBSERVER);

      // The floor: a page of its own (in a browser of its own, so neither is a background tab).
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
      const [bareSocket] = relay.clients;
      if (!frame) throw new Error('The host pushed no tasks:changed frame for round 0.');
      listener.close();
      socket.close();

      // Each page's times, on this process's clock.
      const offsets = new Map([
        [page, await pageClockOffset(page, now)],
        [bare, await pageClockOffset(bare, now)],
      ]);
      const local = (on: typeof page, at: number) => at - (offsets.get(on) ?? 0);
      const seen = (on: typeof page, text: string) => seenAt(on, text, offsets.get(on) ?? 0, 30_000);
      const samples = {
        app: [] as number[],
        floor: [] as number[],
        first: [] as number[],
        host: [] as number[],
        page: [] as number[],
      };
      const WARMUP = 5;
      const profiler = PROFILE_DIR ? await profilePage(await page.context().newCDPSession(page)) : null;
      await interleave(
        {
          app: async () => {
            const r = ++round;
            if (r % 50 === 0) process.stderr.write(`  [taskPush] round ${r / 2}\n`);
            const asked = nextRequest();
            await send(`Round ${r}`);
            const release = await asked;
            // The model's answer meets a page at rest, as it does seconds after a send.
            await page.evaluate(`window.__arm(${JSON.stringify(`Working on round ${r}`)}, 'section.task-header')`);
            const start = now();
            release();
            const shown = await seen(page, `round ${r}`);
            await answered(r);
            const took = shown - start;
            const [first, arrived] = (await page.evaluate('[window.__first, window.__arrived]')) as number[];
            samples.app.push(took);
            samples.first.push(local(page, first) - start);
            samples.host.push(local(page, arrived) - start);
            samples.page.push(shown - local(page, arrived));
            return took;
          },
          floor: async () => {
            const r = ++round;
            const text = `Working on round ${r}`;
            await bare.evaluate(`window.__arm(${JSON.stringify(text)}, '#bare-relay')`);
            const start = now();
            bareSocket.send(frame.replace(/Working on round \d+/, text));
            const took = (await seen(bare, text)) - start;
            samples.floor.push(took);
            return took;
          },
        },
        { rounds: ROUNDS, warmup: WARMUP },
      );
      if (profiler) report(PROFILE_DIR ?? '', 'taskPush-page', await profiler.stop());
      const app = samples.app.slice(WARMUP);
      const floor = samples.floor.slice(WARMUP);
      return [
        {
          measure: `model writes manage_todo_list (${TASKS} tasks) → task header text in the DOM, host process`,
          rounds: app.length,
          'app p50': ms(percentile(app, 50)),
          'app p95': ms(percentile(app, 95)),
          'app min': ms(Math.min(...app)),
          floor: 'same frame, bare WebSocket → DOM write',
          'floor p50': ms(percentile(floor, 50)),
          'floor p95': ms(percentile(floor, 95)),
          'floor min': ms(Math.min(...floor)),
          'ratio p95': `${(percentile(app, 95) / percentile(floor, 95)).toFixed(2)}×`,
          goal: 'p95 ≤ 2.5× the floor',
        },
        ...(['first', 'host', 'page'] as const).map((stage) => {
          const kept = samples[stage].slice(WARMUP);
          return {
            measure: `  stage: ${STAGE_NAMES[stage]}`,
            rounds: kept.length,
            'app p50': ms(percentile(kept, 50)),
            'app p95': ms(percentile(kept, 95)),
            'app min': ms(Math.min(...kept)),
          };
        }),
      ];
    } finally {
      socket.close();
      await browser.close();
      await bareBrowser.close();
      relay.close();
      await host.stop();
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
