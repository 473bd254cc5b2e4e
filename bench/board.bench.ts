// The task board with 10,000 open lists of 10 tasks (100,000 tasks): the core's query
// through the contract (first page, a page deep down, a text filter, a status filter),
// and in Debian Chromium through the built browser host: the "Tasks" entry clicked → the
// first group painted, and the renderer's heap after one open, after every round, and
// after scrolling to the last list and back (flat: only the pages in view are kept).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { registerRawImports } from './rawImports';
import { ms, percentile, summarize, time, type Bench, type BenchRow } from './benchKit';
import { launchApp, makeDataDir } from '../tests/e2e/support/app';

/** STEPWISE_BENCH_SCALE=0.1 runs at a tenth of the size, to try the benchmark out. */
const SCALE = Number(process.env.STEPWISE_BENCH_SCALE ?? 1);
const LISTS = Math.round(10_000 * SCALE);
const TASKS_EACH = 10;
const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
const STATUSES = [
  'completed',
  'completed',
  'in_progress',
  'pending',
  'pending',
  'pending',
  'pending',
  'pending',
  'pending',
  'cancelled',
];

/** A data dir with LISTS conversations, each with an open list of TASKS_EACH tasks (one blocked). */
async function seed(): Promise<{
  dataDir: string;
  dispatch: (m: string, p: unknown) => Promise<unknown>;
  close: () => void;
}> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const dataDir = path.join(makeDataDir(), 'data');
  const core = createNodeCore({ dataDir, env: {}, chat: { log: () => {} } });
  const insertList = core.db.prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, ?)');
  const insertTask = core.db.prepare(
    `INSERT INTO tasks (list_id, seq, title, status, owner, position, created_at, updated_at, completed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDep = core.db.prepare('INSERT INTO task_deps (task_id, blocked_by_id) VALUES (?, ?)');
  const at = Date.now() - LISTS * 1000;
  core.db.transaction(() => {
    for (let i = 0; i < LISTS; i++) {
      const { id } = core.conversations.create(`Project ${i}`);
      const listId = Number(insertList.run(id, at + i * 1000).lastInsertRowid);
      let previous = 0;
      for (let t = 0; t < TASKS_EACH; t++) {
        const status = STATUSES[t]!;
        const when = at + i * 1000 + t;
        const row = Number(
          insertTask.run(
            listId,
            t + 1,
            `Task ${t + 1} of project ${i}`,
            status,
            t === 5 ? 'worker-1' : 'main',
            t,
            when,
            when,
            status === 'completed' ? when : null,
          ).lastInsertRowid,
        );
        if (t === 4) insertDep.run(row, previous);
        previous = row;
      }
    }
  })();
  core.conversations.create('Empty neighbour');
  return { dataDir, dispatch: (m, p) => core.dispatch(m, p), close: () => core.close() };
}

/** The page's clock once a group titled `title` is on the board and a frame has painted. */
async function groupPaintedAt(page: Page, title: string): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`"${title}" was not painted within 60 s`)), 60_000);
  });
  return Promise.race([painted(page, title), timeout]).finally(() => clearTimeout(timer));
}

function painted(page: Page, title: string): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const found = () => document.querySelector('[aria-label="Task board"] section[aria-label=${JSON.stringify(title)}]') !== null;
    const done = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now())));
    if (found()) return done();
    const watcher = new MutationObserver(() => {
      if (!found()) return;
      watcher.disconnect();
      done();
    });
    watcher.observe(document.body, { subtree: true, childList: true });
  })`) as Promise<number>;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const bench: Bench = {
  title: `Task board with ${LISTS.toLocaleString('en')} open lists / ${(LISTS * TASKS_EACH).toLocaleString('en')} tasks`,
  async run() {
    const rows: BenchRow[] = [];
    const seeded = await seed();
    const newest = `Project ${LISTS - 1}`;
    try {
      const cases: Array<[string, Record<string, unknown>]> = [
        // 30 groups: the page's own page size (src/renderer/board/useBoardPages.ts).
        ['first page (30)', { offset: 0, limit: 30 }],
        ['page near the end', { offset: Math.max(0, LISTS - 100), limit: 30 }],
        ['text "project 42"', { filter: { text: 'project 42' }, limit: 30 }],
        ['status blocked', { filter: { statuses: ['blocked'] }, limit: 30 }],
      ];
      for (const [name, params] of cases) {
        const t = await time(() => seeded.dispatch('board:list', params), { runs: 30 });
        rows.push({ measure: `board:list, ${name}`, rounds: t.runs, 'app median': ms(t.p50), 'app p95': ms(t.p95) });
      }
    } finally {
      seeded.close();
    }
    const app = await launchApp({ dataDir: seeded.dataDir });
    try {
      const { page } = app;
      const cdp = await app.context.newCDPSession(page);
      const heap = async () => {
        await cdp.send('HeapProfiler.collectGarbage');
        return ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
      };
      const open = async () => {
        await page.getByRole('link', { name: 'Empty neighbour' }).click();
        await page.getByRole('region', { name: 'Task board' }).waitFor({ state: 'detached' });
        const start = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
        await page.getByRole('button', { name: 'Tasks', exact: true }).click();
        return (await groupPaintedAt(page, newest)) - start;
      };
      const samples = [await open()];
      const heapAfterOne = await heap();
      for (let i = 1; i < ROUNDS; i++) samples.push(await open());
      const heapAfterRounds = await heap();
      // To the oldest list and back: pages far from the view are dropped.
      const scroller = page.locator('.board-scroll');
      // Heights settle as pages arrive, so the end moves: follow it until the oldest is in.
      const oldest = page.getByRole('region', { name: 'Project 0', exact: true });
      for (let i = 0; i < 100 && !(await oldest.isVisible()); i++) {
        await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        await page.waitForTimeout(50);
      }
      await groupPaintedAt(page, 'Project 0');
      await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
      await groupPaintedAt(page, newest);
      const heapAfterScroll = await heap();
      const s = summarize(samples);
      rows.push({
        measure: '"Tasks" clicked → first group painted',
        rounds: s.rounds,
        'app median': ms(s.median),
        'app p95': ms(percentile(samples, 95)),
        goal: '≤ 300 ms; heap flat',
        'renderer heap': `${mib(heapAfterOne)} after 1 open, ${mib(heapAfterRounds)} after ${ROUNDS}, ${mib(heapAfterScroll)} after scrolling to the end and back`,
      });
    } finally {
      await app.close();
      fs.rmSync(path.dirname(seeded.dataDir), { recursive: true, force: true });
    }
    return rows;
  },
};

export default bench;
