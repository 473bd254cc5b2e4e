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
  return { runs, p50: percentile(samples, 50), p95: percentile(samples, 95), mean: samples.reduce((a, b) => a + b, 0) / runs };
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
  const line = (values: string[]) => `  ${values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ')}`;
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of cells) console.log(line(row));
}
