// What a user waits for, measured in Debian Chromium through the built browser host,
// each against its floor in the same interleaved run:
//   - a 20,000-token reply streamed to its last token painted, against the openai SDK
//     alone consuming the same stream (and the longest main-thread task meanwhile);
//   - a 1 MB reply, from the server's last byte to its last text on screen, and reopened,
//     as prose and in the three one-block shapes (lines, a code block, a table);
//   - 20,000 deltas of 7 characters, against the SDK alone;
//   - opening 10k- and 100k-message conversations to the last message painted;
//   - send to the request reaching the model in a 100k-message conversation.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import type { Locator, Page } from 'playwright-core';
import { registerRawImports } from './rawImports';
import { interleave, ms, ratioRow, summarize, type Bench, type BenchRow } from './benchKit';
import { launchApp, makeDataDir, ROOT, type App } from '../tests/e2e/support/app';
import { startScriptedServer, type ScriptedServer, type Turn } from '../tests/support/scriptedServer';

const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
/** STEPWISE_BENCH_SCALE=0.1 runs everything at a tenth of the size, to try the benchmark out. */
const SCALE = Number(process.env.STEPWISE_BENCH_SCALE ?? 1);
const STREAM_TOKENS = Math.round(20_000 * SCALE);
const MEGABYTE_TOKENS = Math.round(256 * 1024 * SCALE);
const LONG = [10_000, 100_000].map((n) => Math.round(n * SCALE));
/** STEPWISE_BENCH_ONLY=stream,megabyte,lines,code,table,tiny,open picks sections (all by default). */
const ONLY = process.env.STEPWISE_BENCH_ONLY?.split(',');
const wanted = (section: string) => !ONLY || ONLY.includes(section);
const began = performance.now();
/** Progress on stderr, so a slow step shows where it is (the table goes to stdout). */
const step = (what: string) =>
  process.stderr.write(`  [ui ${((performance.now() - began) / 1000).toFixed(1)} s] ${what}\n`);

/** About `tokens` tokens of ordinary Markdown (4 characters a token), ending in `end`. */
function markdownReply(tokens: number, end: string): string {
  const paragraph =
    'The plan has **three** steps: read the `config`, check each entry, and write a short report of what changed. ';
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < tokens * 4; i++) {
    const piece =
      i % 12 === 11
        ? '```ts\nconst step = ' + i + ';\nconsole.log(step);\n```\n\n'
        : i % 5 === 4
          ? `- item ${i}\n- item ${i + 1}\n\n`
          : `${paragraph.repeat(3)}\n\n`;
    parts.push(piece);
    length += piece.length;
  }
  return `${parts.join('')}${end}\n`;
}

/**
 * The three 1 MB replies that are one Markdown block each, ending in `end`: 12,500 short
 * log lines with inline marks in one paragraph, one fenced code block, one table of
 * 10,000 rows. A model dumps logs, files and CSV exactly like this.
 */
const SHAPES = {
  lines: (end: string) =>
    Array.from(
      { length: Math.round(12_500 * SCALE) },
      (_, i) =>
        `12:00:${String(i % 60).padStart(2, '0')} worker-${i % 8} handled **job ${i}** in \`${i % 97} ms\`, queue ${i % 13}`,
    ).join('\n') + `\n${end}\n`,
  code: (end: string) =>
    '```ts\n' +
    Array.from(
      { length: Math.round(16_000 * SCALE) },
      (_, i) => `const value${i} = compute(${i}, "item-${i % 97}"); // step ${i}`,
    ).join('\n') +
    `\n// ${end}\n\`\`\`\n`,
  table: (end: string) =>
    '| id | name | state | owner | note |\n|---|---|---|---|---|\n' +
    Array.from(
      { length: Math.round(10_000 * SCALE) },
      (_, i) => `| ${i} | widget-${i % 97} | **ok** | team-${i % 13} | checked at step ${i} of the plan run |`,
    ).join('\n') +
    `\n| ${end} | end | done | - | - |\n`,
};
type Shape = keyof typeof SHAPES;

/** 20,000 deltas of 7 characters: a local server (llama.cpp, Ollama) streaming token by token. */
const TINY_DELTAS = Math.round(20_000 * SCALE);
const tinyReply = (end: string) => {
  const words = 'Tokens '.repeat(TINY_DELTAS - 4);
  return `${words}\n\n${end}`.padEnd(TINY_DELTAS * 7, ' ');
};

/**
 * Resolves with the page's clock once `needle` is in the message log and a frame has painted.
 * It looks when the page changes (a MutationObserver), not at every frame: polling in
 * requestAnimationFrame kept the page producing frames it would not otherwise draw,
 * charging the app for the benchmark's own watching.
 */
// In-page code is passed as text: tsx would otherwise wrap named functions in a helper
// the page does not have.
async function paintedAt(page: Page, needle: string): Promise<number> {
  const painted = page.evaluate(`new Promise((resolve) => {
    const found = () => {
      const rows = document.querySelectorAll('[role=log] article');
      const last = rows[rows.length - 1];
      return last !== undefined && last.textContent.includes(${JSON.stringify(needle)});
    };
    // The frame after the one that drew it: as late as the polling this replaced.
    const done = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now())));
    if (found()) return done();
    const watcher = new MutationObserver(() => {
      if (!found()) return;
      watcher.disconnect();
      done();
    });
    watcher.observe(document.body, { subtree: true, childList: true, characterData: true });
  })`) as Promise<number>;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`"${needle}" was not painted within 120 s`)), 120_000);
  });
  return Promise.race([painted, timeout]).finally(() => clearTimeout(timer));
}

async function pageNow(page: Page): Promise<number> {
  return page.evaluate('performance.timeOrigin + performance.now()');
}

/**
 * Presses Enter in `box`; resolves with the page's clock when the key reached the page (its
 * keydown event), not when the command left Playwright: that trip (10–15 ms here) is the
 * test driver's, not the app's.
 */
async function pressEnter(page: Page, box: Locator): Promise<number> {
  await page.evaluate(`window.__enterAt = 0;
    window.__enterListener ??= window.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !window.__enterAt) window.__enterAt = performance.timeOrigin + event.timeStamp;
    }, true) ?? true;`);
  await box.press('Enter');
  const at = (await page.evaluate('window.__enterAt')) as number;
  if (!at) throw new Error('Enter never reached the page');
  return at;
}

/** Sends `text` in a new conversation; resolves with the page's clock at its Enter. */
async function sendInNewConversation(page: Page, text: string): Promise<number> {
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  // Typing is measured from a settled new conversation, not the switch to it.
  await page.getByRole('heading', { name: 'What should we work on?' }).waitFor();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await page.evaluate(`performance.mark('${STREAM_START}')`);
  return pressEnter(page, box);
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/** Marks a traced round's streaming time: from just before Enter to the last token painted. */
const STREAM_START = 'stepwise-stream-start';
const STREAM_END = 'stepwise-stream-end';

/**
 * The longest task on the page's main thread in a Chromium trace: its wall time (what
 * the Long Tasks API reports) and the CPU time the thread spent in it. On this shared
 * machine a task is often descheduled mid-way, so its wall time says more about the
 * load than about the app; the CPU time is what the app asked of the thread.
 */
function longestTask(trace: Buffer): { wall: number; cpu: number; cpuOfLongestWall: number } {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  // Only tasks that start while a reply streams (between the page's marks) count; switching
  // to a new conversation before it is not streaming.
  const marks = events.filter((e) => e.name === STREAM_START || e.name === STREAM_END).sort((a, b) => a.ts - b.ts);
  const windows: Array<[number, number]> = [];
  for (let i = 0; i + 1 < marks.length; i++) {
    if (marks[i].name === STREAM_START && marks[i + 1].name === STREAM_END)
      windows.push([marks[i].ts, marks[i + 1].ts]);
  }
  if (!windows.length) throw new Error('the trace holds no streaming marks');
  const streaming = (e: TraceEvent) => windows.some(([from, to]) => e.ts >= from && e.ts <= to);
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && streaming(e));
  const busiest = new Map<string, number>();
  for (const task of tasks)
    busiest.set(`${task.pid}:${task.tid}`, (busiest.get(`${task.pid}:${task.tid}`) ?? 0) + (task.tdur ?? 0));
  const main = [...busiest].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = tasks.filter((t) => `${t.pid}:${t.tid}` === main);
  const byWall = mine.reduce((a, b) => ((b.dur ?? 0) > (a.dur ?? 0) ? b : a), mine[0]);
  return {
    wall: (byWall?.dur ?? 0) / 1000,
    cpuOfLongestWall: (byWall?.tdur ?? 0) / 1000,
    cpu: Math.max(0, ...mine.map((t) => t.tdur ?? 0)) / 1000,
  };
}

/**
 * STEPWISE_BENCH_PROFILE=<dir> writes CPU profiles there: the host's whole run (`--cpu-prof`)
 * and the page's during a few extra rounds of a section that profiles (`tiny`). Open them in
 * Chromium's DevTools (Performance) or read them with any .cpuprofile tool.
 */
const PROFILE_DIR = process.env.STEPWISE_BENCH_PROFILE ? path.resolve(process.env.STEPWISE_BENCH_PROFILE) : undefined;

/** Runs `work` under the page's CPU profiler (CDP) and writes `<name>.cpuprofile`. */
async function profilePage(page: Page, dir: string, name: string, work: () => Promise<void>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await work();
  const { profile } = await cdp.send('Profiler.stop');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  await cdp.detach();
}

/** 20,000 deltas of 7 characters to the last painted, against the SDK alone on the same stream. */
async function tinyDeltaRows(app: App, server: ScriptedServer): Promise<BenchRow[]> {
  const openai = new OpenAI({ baseURL: server.baseUrl, apiKey: 'bench', maxRetries: 0 });
  const { page } = app;
  let round = 0;
  const phases: Array<[number, number, number]> = [];
  const sdkStreaming: number[] = [];
  const result = await interleave(
    {
      app: async () => {
        const end = `END-OF-TINY-${++round}`;
        step(`tiny round ${round}`);
        const start = await sendInNewConversation(page, `tiny ${end}`);
        const painted = await paintedAt(page, end);
        const request = server.streamRequests().at(-1)!;
        phases.push([
          request.at - start,
          (request.finishedAt ?? painted) - request.at,
          painted - (request.finishedAt ?? painted),
        ]);
        return painted - start;
      },
      sdk: async () => {
        const stream = await openai.chat.completions.create({
          model: 'scripted',
          stream: true,
          messages: [{ role: 'user', content: `tiny END-OF-SDK-${++round}` }],
        });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        if (!text.includes('END-OF-SDK')) throw new Error('the SDK stream was incomplete');
        const request = server.streamRequests().at(-1)!;
        sdkStreaming.push((request.finishedAt ?? request.at) - request.at);
      },
    },
    { rounds: ROUNDS },
  );
  // Where the app's time goes: Enter → request at the server, its first → last byte, last byte → painted.
  const phase = (i: number) => ms(summarize(phases.slice(-ROUNDS).map((p) => p[i])).median);
  step(
    `tiny phases (medians): send ${phase(0)}, server streaming ${phase(1)}, last byte → painted ${phase(2)}; the SDK's server streaming ${ms(summarize(sdkStreaming.slice(-ROUNDS)).median)}`,
  );
  if (PROFILE_DIR)
    await profilePage(page, PROFILE_DIR, 'tiny-page', async () => {
      for (let i = 0; i < 5; i++) {
        const end = `END-OF-TINY-${++round}`;
        await sendInNewConversation(page, `tiny ${end}`);
        await paintedAt(page, end);
      }
    });
  return [
    ratioRow(
      `stream ${TINY_DELTAS.toLocaleString('en')} deltas of 7 characters → last painted`,
      result.app,
      result.sdk,
      'openai SDK alone',
      '≤ 1.2×',
    ),
  ];
}

async function streamingRows(app: App, server: ScriptedServer): Promise<BenchRow[]> {
  const openai = new OpenAI({ baseURL: server.baseUrl, apiKey: 'bench', maxRetries: 0 });
  const { page } = app;
  let round = 0;
  const result = await interleave(
    {
      app: async () => {
        const end = `END-OF-STREAM-${++round}`;
        step(`stream round ${round}`);
        const start = await sendInNewConversation(page, `stream ${end}`);
        return (await paintedAt(page, end)) - start;
      },
      sdk: async () => {
        const stream = await openai.chat.completions.create({
          model: 'scripted',
          stream: true,
          messages: [{ role: 'user', content: `stream END-OF-SDK-${++round}` }],
        });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        if (!text.includes('END-OF-SDK')) throw new Error('the SDK stream was incomplete');
      },
    },
    { rounds: ROUNDS },
  );
  // Long tasks come from a few more app rounds, traced: tracing would slow the timed ones.
  await app.browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
  });
  for (let i = 0; i < 3; i++) {
    const end = `END-OF-STREAM-${++round}`;
    await sendInNewConversation(page, `stream ${end}`);
    await paintedAt(page, end);
    await page.evaluate(`performance.mark('${STREAM_END}')`);
  }
  const longest = longestTask(await app.browser.stopTracing());
  return [
    ratioRow(
      `stream ${STREAM_TOKENS.toLocaleString('en')} tokens → last token painted`,
      result.app,
      result.sdk,
      'openai SDK alone',
      '≤ 1.3×',
    ),
    {
      measure: 'longest main-thread task while streaming (Enter → last token painted): CPU time',
      'app median': ms(longest.cpu),
      goal: '≤ 50 ms',
    },
    {
      measure: 'longest main-thread task while streaming: wall time',
      'app median': ms(longest.wall),
      goal: '≤ 50 ms',
      note: `of which CPU ${ms(longest.cpuOfLongestWall)}; the rest is the machine's load`,
    },
  ];
}

/**
 * The host process's peak RSS since the last reset (Linux: VmHWM, reset by writing 5 to
 * clear_refs), so each kind of reply gets its own peak; null elsewhere.
 */
function hostPeakRss(app: App, reset = false): number | null {
  const pid = app.host.child.pid;
  try {
    if (reset) fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

const SHAPE_NAMES: Record<Shape, string> = {
  lines: '12,500 short lines in one paragraph',
  code: 'one fenced code block',
  table: 'one table of 10,000 rows',
};

async function bigReplyRows(
  app: App,
  server: ScriptedServer,
  shape: 'megabyte' | Shape = 'megabyte',
): Promise<BenchRow[]> {
  const { page } = app;
  const label = shape === 'megabyte' ? '1 MB reply' : `1 MB reply, ${SHAPE_NAMES[shape]}`;
  const word = shape === 'megabyte' ? 'MEGABYTE' : shape.toUpperCase();
  hostPeakRss(app, true);
  const after: number[] = [];
  const reopen: number[] = [];
  const rounds = Math.max(3, Math.round(ROUNDS / 4));
  for (let round = 1; round <= rounds; round++) {
    const end = `END-OF-${word}-${round}`;
    step(`${shape} round ${round}`);
    await sendInNewConversation(page, `${shape} ${end}`);
    const painted = await paintedAt(page, end);
    const finished = server.streamRequests().at(-1)?.finishedAt ?? painted;
    after.push(painted - finished);
    // Reopen: another conversation, then back to this one.
    const link = page.getByRole('link', { name: new RegExp(end) });
    await link.waitFor();
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const start = await pageNow(page);
    await link.click();
    reopen.push((await paintedAt(page, end)) - start);
  }
  const a = summarize(after);
  const r = summarize(reopen);
  const peak = hostPeakRss(app);
  const rss = peak === null ? 'n/a' : `${(peak / 1024 / 1024).toFixed(0)} MiB`;
  return [
    {
      measure: `${label}: server done → last text painted`,
      rounds: a.rounds,
      'app median': ms(a.median),
      'app min': ms(a.min),
      goal: '≤ 2,000 ms',
      'peak host RSS': rss,
    },
    {
      measure: `${label}: reopen → last text painted`,
      rounds: r.rounds,
      'app median': ms(r.median),
      'app min': ms(r.min),
      goal: '≤ 500 ms',
    },
  ];
}

/** A data dir with one conversation of `count` messages, written by the app's own repositories. */
async function seedLongConversation(count: number, title: string, env: Record<string, string>): Promise<string> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const dataDir = path.join(makeDataDir(), 'data');
  // The same environment as the app's later: a conversation keeps the model it was made with.
  const core = createNodeCore({ dataDir, env, chat: { log: () => {} } });
  const conversation = core.conversations.create(title);
  core.db.transaction(() => {
    for (let i = 1; i <= count; i++) {
      core.messages.insert({
        conversationId: conversation.id,
        role: i % 2 ? 'user' : 'assistant',
        content:
          i % 2 ? `Question ${i}` : `Answer ${i} with **bold** text, \`code\` and a [link](https://example.com).`,
      });
    }
  })();
  core.conversations.create('Empty neighbour');
  core.close();
  return dataDir;
}

async function openRows(server: ScriptedServer): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const count of LONG) {
    step(`seeding ${count} messages`);
    const env = { OPENAI_BASE_URL: server.baseUrl, STEPWISE_MODEL: 'scripted' };
    const dataDir = await seedLongConversation(count, `Long ${count}`, env);
    const app = await launchApp({ dataDir, env });
    try {
      const { page } = app;
      const open = async () => {
        await page.getByRole('link', { name: 'Empty neighbour' }).click();
        await page.getByRole('heading', { name: 'What should we work on?' }).waitFor();
        const start = await pageNow(page);
        await page.getByRole('link', { name: `Long ${count}` }).click();
        return (await paintedAt(page, `Answer ${count} with`)) - start;
      };
      const samples: number[] = [];
      for (let i = 0; i < Math.max(5, Math.round(ROUNDS / 2)); i++) samples.push(await open());
      const s = summarize(samples);
      const cdp = await app.context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      rows.push({
        measure: `open a ${count.toLocaleString('en')}-message conversation → last message painted`,
        rounds: s.rounds,
        'app median': ms(s.median),
        'app min': ms(s.min),
        goal: count === LONG[1] ? '≤ 300 ms; heap flat' : '≤ 150 ms',
        'renderer heap': `${(heap.usedSize / 1024 / 1024).toFixed(1)} MiB`,
      });
      if (count === LONG[1]) rows.push(await sendToRequestRow(app, server, count));
    } finally {
      await app.close();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  }
  return rows;
}

/** Send in the long conversation against send in a new one, both to the request arriving. */
async function sendToRequestRow(app: App, server: ScriptedServer, count: number): Promise<BenchRow> {
  const { page } = app;
  const box = page.getByRole('textbox', { name: 'Message' });
  const timeSend = async (open: () => Promise<void>) => {
    await open();
    const before = server.streamRequests().length;
    await box.fill('quick question');
    const start = await pressEnter(page, box);
    // Counted before Enter: a fast reply (and the title request after it) could otherwise
    // arrive before a count taken afterwards, leaving nothing to wait for.
    const deadline = Date.now() + 60_000;
    while (server.streamRequests().length === before) {
      if (Date.now() > deadline)
        throw new Error(`no request reached the model: ${await page.getByRole('log').innerText()}`.slice(0, 2000));
      await new Promise((r) => setTimeout(r, 1));
    }
    const arrived = server.streamRequests().at(-1)!.at;
    await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'hidden', timeout: 60_000 });
    return arrived - start;
  };
  const result = await interleave(
    {
      long: () =>
        timeSend(async () => {
          await page.getByRole('link', { name: `Long ${count}` }).click();
          await page
            .getByText(/Answer \d+ with|OK/)
            .last()
            .waitFor({ timeout: 60_000 });
        }),
      fresh: () =>
        timeSend(async () => {
          await page.getByRole('button', { name: 'New conversation', exact: true }).click();
          await page.getByRole('heading', { name: 'What should we work on?' }).waitFor();
        }),
    },
    { rounds: Math.max(5, Math.round(ROUNDS / 2)), warmup: 1 },
  );
  return ratioRow(
    `send → request at the model, ${count.toLocaleString('en')} messages`,
    result.long,
    result.fresh,
    'send in a new conversation',
    '≤ 50 ms',
  );
}

const bench: Bench = {
  title: 'What the user waits for, in Chromium through the browser host',
  async run() {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
    const streamText = (end: string) => markdownReply(STREAM_TOKENS, end);
    const megabyte = (end: string) => markdownReply(MEGABYTE_TOKENS, end);
    const server = await startScriptedServer({
      script: (request): Turn => {
        const end = JSON.stringify(request.body.messages).match(/END-OF-[A-Z]+-\d+/)?.[0] ?? 'END';
        // Titles name the round, so a round's conversation can be found in the sidebar.
        if (!request.body.stream) return { text: `Bench ${end}` };
        const last = String(request.body.messages.at(-1)?.content ?? '');
        if (last.startsWith('stream')) return { text: streamText(end), chunkSize: 4 };
        if (last.startsWith('megabyte')) return { text: megabyte(end), chunkSize: 256 };
        if (last.startsWith('tiny')) return { text: tinyReply(end), chunkSize: 7 };
        const shape = (Object.keys(SHAPES) as Shape[]).find((name) => last.startsWith(`${name} `));
        if (shape) return { text: SHAPES[shape](end), chunkSize: 256 };
        return { text: 'OK' };
      },
    });
    const rows: BenchRow[] = [];
    try {
      step('launching');
      const profiling = PROFILE_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` } : {};
      const app = await launchApp({
        env: { OPENAI_BASE_URL: server.baseUrl, STEPWISE_MODEL: 'scripted', ...profiling },
      });
      step('launched');
      try {
        if (wanted('stream')) rows.push(...(await streamingRows(app, server)));
        if (wanted('megabyte')) rows.push(...(await bigReplyRows(app, server)));
        for (const shape of Object.keys(SHAPES) as Shape[])
          if (wanted(shape)) rows.push(...(await bigReplyRows(app, server, shape)));
        if (wanted('tiny')) rows.push(...(await tinyDeltaRows(app, server)));
      } finally {
        await app.close();
      }
      if (wanted('open')) rows.push(...(await openRows(server)));
    } finally {
      await server.close();
    }
    return rows;
  },
};

export default bench;
