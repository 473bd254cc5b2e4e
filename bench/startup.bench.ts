// Start-up and search on data shaped as users have it (bench/support/userData.ts), the host
// as a separate process, each start cold (a new process), the shipped SQLite settings:
//   - host start → URL line at 100k messages and at 50k conversations (1,000 pinned),
//     against the start at 10k messages (interleaved);
//   - search over the host's WebSocket, a common word against a rare one, on each data set;
//   - the gzip size of what index.html loads before the first paint.
// With `npm run bench -- --against <ref>` (bench/run.ts builds the ref beside this one and
// sets STEPWISE_BENCH_AGAINST), every row is measured for both builds in the same rounds,
// the data seeded into the ref's schema and copied for this build, whose first start on a
// copy migrates it (a row of its own, against its normal start at 100k messages).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import {
  interleave,
  kb,
  ms,
  percentile,
  ratioRow,
  summarize,
  type Bench,
  type BenchRow,
  type Summary,
} from './benchKit';
import {
  HOST_ENTRY,
  launchChromium,
  makeDataDir,
  ROOT,
  startHostProcess,
  type HostProcess,
} from '../tests/e2e/support/app';
import { FIRST_PAINT_BUDGET, firstPaintBundle } from '../tests/e2e/support/firstPaint';
import { COMMON_WORD, RARE_WORD, seedUserData, type Shape } from './support/userData';
import { openHostSocket } from './support/hostSocket';
import { bareNoticePage, readNoticePaint, recordNoticePaint } from './support/noticePaint';
import { migrationPending } from '../src/main/core/db/migrateAside';

const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
const MIGRATION_ROUNDS = Number(process.env.STEPWISE_BENCH_MIGRATION_ROUNDS ?? 5);
const SCALE = Number(process.env.STEPWISE_BENCH_SCALE ?? 1);
const AGAINST = process.env.STEPWISE_BENCH_AGAINST;
/** A start is what is measured: on a machine loaded 15× its cores, a cold one took over 20 s. */
const START_TIMEOUT_MS = 120_000;
const AGAINST_REF = process.env.STEPWISE_BENCH_AGAINST_REF ?? 'ref';

const SETS: Record<'small' | 'large' | 'many', Shape> = {
  small: { kind: 'messages', count: Math.round(10_000 * SCALE) },
  large: { kind: 'messages', count: Math.round(100_000 * SCALE) },
  many: { kind: 'conversations', count: Math.round(50_000 * SCALE), pinned: Math.round(1_000 * SCALE) },
};
type SetName = keyof typeof SETS;
const NAMES = Object.keys(SETS) as SetName[];
const label = (set: SetName) => {
  const shape = SETS[set];
  const n = shape.count.toLocaleString('en');
  return shape.kind === 'messages' ? `${n} messages` : `${n} conversations, ${shape.pinned} pinned`;
};

interface Side {
  name: string;
  script: string;
  dirs: Record<SetName, string>;
}

const roots: string[] = [];
function newDataDir(): string {
  const dir = path.join(makeDataDir(), 'data');
  roots.push(path.dirname(dir));
  return dir;
}

/** The schema made by `script`'s first start, then the data. */
async function seeded(script: string, shape: Shape): Promise<string> {
  const dataDir = newDataDir();
  const host = await startHostProcess({ dataDir, script, startTimeoutMs: START_TIMEOUT_MS });
  await host.stop();
  seedUserData(dataDir, shape);
  return dataDir;
}

function copyOf(dataDir: string): string {
  const copy = newDataDir();
  fs.cpSync(dataDir, copy, { recursive: true });
  return copy;
}

/**
 * This build's first start on a copy, untimed, to the end of its migrations. The host prints
 * its address while its worker migrates and holds its socket until the core is open: a
 * stop at the address line would end the update, and every timed start would migrate.
 */
async function migrated(script: string, dataDir: string): Promise<void> {
  const host = await startHostProcess({ dataDir, script, startTimeoutMs: START_TIMEOUT_MS });
  try {
    (await openHostSocket(host)).close();
  } finally {
    await host.stop();
  }
  if (migrationPending(dataDir)) throw new Error(`${dataDir} was not migrated by ${script}.`);
}

const start = (script: string, dataDir: string) => async () => {
  const began = performance.now();
  const host = await startHostProcess({ dataDir, script, startTimeoutMs: START_TIMEOUT_MS });
  const elapsed = performance.now() - began;
  await host.stop();
  return elapsed;
};

async function startupRows(sides: Side[]): Promise<BenchRow[]> {
  const variants: Record<string, () => Promise<number>> = {};
  for (const side of sides)
    for (const set of NAMES) variants[`${side.name} ${set}`] = start(side.script, side.dirs[set]);
  const result = await interleave(variants, { rounds: ROUNDS, warmup: 1 });
  const rows: BenchRow[] = [];
  for (const side of sides) {
    const floor = result[`${side.name} small`];
    for (const set of ['large', 'many'] as const) {
      rows.push(
        ratioRow(
          `[${side.name}] host start → URL line, ${label(set)}`,
          result[`${side.name} ${set}`],
          floor,
          `start at ${label('small')}`,
          '≤ 1.15×',
        ),
      );
    }
  }
  if (sides.length === 2) rows.push(...abRows('host start', result, sides));
  return rows;
}

/** This build against the ref, set by set, from the same interleaved rounds. */
function abRows(what: string, result: Record<string, Summary>, sides: Side[], suffix = ''): BenchRow[] {
  return NAMES.map((set) =>
    ratioRow(
      `[A/B] ${what}, ${label(set)}${suffix}`,
      result[`${sides[0].name} ${set}${suffix}`],
      result[`${sides[1].name} ${set}${suffix}`],
      sides[1].name,
      '≤ 1× (no slower)',
    ),
  );
}

/**
 * A start as the user sees it in the page: the host process started → the app usable (its
 * "New conversation" button), and, while the migrations run, when the page painted
 * "Updating your data…": after the host's address line, and after the page's request (null
 * when the app came first: nothing to say).
 */
async function startInPage(browser: Browser, script: string, dataDir: string) {
  // The page is open before the host starts, as a window is (opening one is slow: docs/performance.md).
  const page = await browser.newPage();
  await recordNoticePaint(page);
  const began = performance.now();
  let host: HostProcess | null = null;
  try {
    host = await startHostProcess({ dataDir, script, startTimeoutMs: START_TIMEOUT_MS });
    const addressed = performance.timeOrigin + performance.now();
    await page.goto(host.url);
    await page
      .getByRole('button', { name: 'New conversation', exact: true })
      .first()
      .waitFor({ timeout: START_TIMEOUT_MS });
    const usable = performance.now() - began;
    const paint = await readNoticePaint(page);
    return { usable, notice: paint && { fromAddress: paint.epoch - addressed, fromRequest: paint.fromRequest } };
  } finally {
    await page.close();
    await host?.stop();
  }
}

/** This build's first start on copies of the ref's 100k database, against its normal start there. */
async function migrationRows(ours: Side, ref: Side): Promise<BenchRow[]> {
  const copies = Array.from({ length: MIGRATION_ROUNDS }, () => copyOf(ref.dirs.large));
  let next = 0;
  const notices: Array<{ fromAddress: number; fromRequest: number }> = [];
  const browser = await launchChromium();
  const bare = await bareNoticePage(browser);
  try {
    const result = await interleave(
      {
        migrating: async () => {
          const { usable, notice } = await startInPage(browser, ours.script, copies[next++]);
          if (notice) notices.push(notice);
          return usable;
        },
        normal: async () => (await startInPage(browser, ours.script, ours.dirs.large)).usable,
        bare: () => bare.round(),
      },
      { rounds: MIGRATION_ROUNDS, warmup: 0 },
    );
    const noticeRows: BenchRow[] = notices.length
      ? [
          {
            measure: `[${ours.name}] address line → the page painted "Updating your data…" (migrations)`,
            rounds: notices.length,
            'app median': ms(
              percentile(
                notices.map((n) => n.fromAddress),
                50,
              ),
            ),
            'app min': ms(Math.min(...notices.map((n) => n.fromAddress))),
            goal: '≤ 200 ms',
          },
          ratioRow(
            `[${ours.name}] the page's request → "Updating your data…" painted (migrations)`,
            summarize(notices.map((n) => n.fromRequest)),
            result.bare,
            'the notice as a bare page',
            '≤ 200 ms',
          ),
        ]
      : [{ measure: `[${ours.name}] the migrations ended before the page loaded: no notice to show` }];
    return [
      ratioRow(
        `[${ours.name}] first start on ${ref.name}'s database, ${label('large')} (migrations): process → app usable in the page`,
        result.migrating,
        result.normal,
        'its normal start there',
        '≤ 2×',
      ),
      ...noticeRows,
    ];
  } finally {
    await bare.close();
    await browser.close();
  }
}

async function searchRows(sides: Side[]): Promise<BenchRow[]> {
  const hosts = [];
  const variants: Record<string, () => Promise<void>> = {};
  try {
    for (const side of sides) {
      for (const set of NAMES) {
        const host = await startHostProcess({
          dataDir: side.dirs[set],
          script: side.script,
          startTimeoutMs: START_TIMEOUT_MS,
        });
        const socket = await openHostSocket(host);
        hosts.push({ host, socket });
        for (const [word, query] of [
          ['common', COMMON_WORD],
          ['rare', RARE_WORD],
        ]) {
          variants[`${side.name} ${set} ${word}`] = async () => {
            const page = (await socket.call('conversations:list', { query, limit: 100 })) as { items: unknown[] };
            if (!page.items.length) throw new Error(`the search for "${query}" found nothing`);
          };
        }
      }
    }
    const result = await interleave(variants, { rounds: ROUNDS });
    const rows: BenchRow[] = [];
    for (const side of sides) {
      for (const set of NAMES) {
        rows.push(
          ratioRow(
            `[${side.name}] search "${COMMON_WORD}" over the WebSocket, ${label(set)} → first page`,
            result[`${side.name} ${set} common`],
            result[`${side.name} ${set} rare`],
            `a rare word ("${RARE_WORD}")`,
            '≤ 3×',
          ),
        );
      }
    }
    if (sides.length === 2) rows.push(...abRows('search the common word', result, sides, ' common'));
    return rows;
  } finally {
    for (const { host, socket } of hosts) {
      socket.close();
      await host.stop();
    }
  }
}

function bundleRow(): BenchRow {
  const bundle = firstPaintBundle(path.join(ROOT, 'out/renderer'));
  return {
    measure: `renderer before first paint (${bundle.files.length} files, gzip)`,
    'app median': kb(bundle.gzipBytes),
    goal: `≤ ${kb(FIRST_PAINT_BUDGET)}`,
    note: `${bundle.lazyChunks} chunks load on demand`,
  };
}

const load = () => `load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;

const bench: Bench = {
  title: 'Start-up, search and bundle (data shaped as users have it)',
  async run() {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const before = load();
    try {
      const sides: Side[] = [];
      const ours: Side = { name: 'this', script: HOST_ENTRY, dirs: {} as Side['dirs'] };
      if (AGAINST) {
        const ref: Side = {
          name: AGAINST_REF,
          script: path.join(AGAINST, 'out/main/host.js'),
          dirs: {} as Side['dirs'],
        };
        for (const set of NAMES) {
          ref.dirs[set] = await seeded(ref.script, SETS[set]);
          ours.dirs[set] = copyOf(ref.dirs[set]);
          await migrated(ours.script, ours.dirs[set]);
        }
        sides.push(ours, ref);
      } else {
        for (const set of NAMES) ours.dirs[set] = await seeded(ours.script, SETS[set]);
        sides.push(ours);
      }
      // STEPWISE_BENCH_ONLY=start,search,bundle picks parts (default: all).
      const only = process.env.STEPWISE_BENCH_ONLY?.split(',');
      const wants = (part: string) => !only || only.includes(part);
      const rows: BenchRow[] = [];
      if (wants('start')) rows.push(...(await startupRows(sides)));
      if (wants('start') && sides.length === 2) rows.push(...(await migrationRows(ours, sides[1])));
      if (wants('search')) rows.push(...(await searchRows(sides)));
      if (wants('bundle')) rows.push(bundleRow());
      rows.push({ measure: `machine: ${before} before, ${load()} after` });
      return rows;
    } finally {
      for (const dir of roots.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
