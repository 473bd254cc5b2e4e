// One naming scheme for tests, grouped by feature: `<feature>.<aspect>.test.ts` (or
// `<feature>.test.ts`), where the feature is a folder of the code under test — a core
// capability, a renderer feature, or one of src/main's entry points — so a sorted listing
// of any test kind reads feature by feature. A few names cover the whole house: `core`
// (createCore's composition), `shared` (src/shared's primitives), `lint` (the house's own
// checks) and `crash` (kill -9 runs across features).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const folders = (dir: string) =>
  fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const features = new Set([
  ...folders('src/main/core'),
  ...folders('src/renderer'),
  ...folders('src/main'),
  'shared',
  'lint',
  'crash',
]);

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return /\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('test file names', () => {
  it('start with the feature they test', () => {
    const files = ['unit', 'integration', 'e2e'].flatMap((kind) => testFiles(path.join(ROOT, 'tests', kind)));
    const misnamed = files
      .filter((file) => !features.has(path.basename(file).split('.')[0]))
      .map((file) => path.relative(ROOT, file));
    expect(files.length).toBeGreaterThan(100);
    expect(misnamed, `known features: ${[...features].sort().join(', ')}`).toEqual([]);
  });
});
