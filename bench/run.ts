// `npm run bench`: runs every `bench/*.bench.ts` and prints its rows as a table.
// Figures are printed, never asserted. To add a benchmark, create `bench/<name>.bench.ts`
// whose default export is a `Bench` (see bench/benchKit.ts); nothing here needs editing.
// `npm run bench -- export` runs only files whose name contains "export".
// `npm run bench -- --against <git ref> [filter]` also builds that ref in a temporary
// directory and hands it to the benchmarks that measure both builds side by side
// (STEPWISE_BENCH_AGAINST; startup.bench.ts), interleaved in the same rounds.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { printTable, type Bench } from './benchKit';
import { buildRef } from './support/buildRef';

const here = import.meta.dirname;
const args = process.argv.slice(2);
const at = args.indexOf('--against');
const against = at >= 0 ? args[at + 1] : undefined;
if (at >= 0 && !against) throw new Error('--against needs a git ref, e.g. `npm run bench -- --against 10b3eca`.');
const filter = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1))[0] ?? '';
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();

const built = against ? buildRef(path.resolve(here, '..'), against) : null;
if (built) {
  process.env.STEPWISE_BENCH_AGAINST = built.dir;
  process.env.STEPWISE_BENCH_AGAINST_REF = built.name;
  console.log(`Against ${built.name}, built in ${built.dir}`);
}
try {
  if (files.length === 0) console.log(`No benchmarks match "${filter}".`);
  for (const file of files) {
    const bench = (await import(pathToFileURL(path.join(here, file)).href)).default as Bench;
    console.log(`\n${bench.title}  (${file})`);
    const started = performance.now();
    try {
      printTable(await bench.run());
    } catch (error) {
      console.log(`  failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    }
    console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
} finally {
  built?.remove();
}
