// Small helpers shared by the benchmarks: timing with warm-up, percentiles, a table.

export type BenchRow = Record<string, string | number>;

export interface Bench {
  title: string;
  run(): Promise<BenchRow[]> | BenchRow[];
}

export interface Timing {
  runs: number;
  p50: number;
  p95: number;
  mean: number;
}

/** Runs `fn` a few times to warm up, then `runs` times; milliseconds per run. */
export async function time(fn: () => unknown, options: { runs?: number; warmup?: number } = {}): Promise<Timing> {
  const runs = options.runs ?? 20;
  for (let i = 0; i < (options.warmup ?? 3); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return {
    runs,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    mean: samples.reduce((a, b) => a + b, 0) / runs,
  };
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

export function printTable(rows: readonly BenchRow[]): void {
  if (rows.length === 0) return console.log('  (no rows)');
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = rows.map((r) => columns.map((c) => String(r[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) =>
    `  ${values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ')}`;
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of cells) console.log(line(row));
}

export interface Summary {
  rounds: number;
  median: number;
  min: number;
}

export function summarize(samples: readonly number[]): Summary {
  return { rounds: samples.length, median: percentile(samples, 50), min: Math.min(...samples) };
}

/**
 * Runs each variant once per round, alternating (A B A B …), so load on this shared
 * machine falls on all of them alike; milliseconds per run. A variant may return its own
 * measurement (e.g. a time taken inside the page) instead of being timed from outside.
 */
export async function interleave<K extends string>(
  variants: Record<K, () => unknown>,
  options: { rounds?: number; warmup?: number } = {},
): Promise<Record<K, Summary>> {
  const names = Object.keys(variants) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  const rounds = options.rounds ?? 20;
  for (let round = -(options.warmup ?? 2); round < rounds; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      const start = performance.now();
      const measured = await variants[name]();
      const elapsed = typeof measured === 'number' ? measured : performance.now() - start;
      if (round >= 0) samples[name].push(elapsed);
    }
  }
  return Object.fromEntries(names.map((n) => [n, summarize(samples[n])])) as Record<K, Summary>;
}

/** One table row: the app's path against its floor, measured in the same interleaved run. */
export function ratioRow(measure: string, app: Summary, floor: Summary, floorName: string, goal: string): BenchRow {
  return {
    measure,
    rounds: app.rounds,
    'app median': ms(app.median),
    'app min': ms(app.min),
    floor: floorName,
    'floor median': ms(floor.median),
    'floor min': ms(floor.min),
    ratio: `${(app.median / floor.median).toFixed(2)}×`,
    goal,
  };
}
