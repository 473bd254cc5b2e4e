// `npm run bench`: runs every `bench/*.bench.ts` and prints its rows as a table.
// Figures are printed, never asserted. To add a benchmark, create `bench/<name>.bench.ts`
// whose default export is a `Bench` (see bench/benchKit.ts); nothing here needs editing.
// `npm run bench -- export` runs only files whose name contains "export".
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { printTable, type Bench } from './benchKit';

const here = import.meta.dirname;
const filter = process.argv[2] ?? '';
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();

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
