// Measured figures live in docs/performance.md ("Figures behind the code"), not in
// comments, where they go stale unseen: a comment line that says something took, held or
// cost a number of (milli/micro)seconds fails here. Design values (a retry interval, a
// budget) are not measurements and may stay.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const COMMENT = /^\s*(\/\/|\*|\/\*)/;
const TIME = String.raw`\d[\d.,–-]*\s?(ms|µs|s)\b`;
const VERB = String.raw`\b(took|takes|held|holds|cost|costs|costing|measured)\b`;
const FIGURE = new RegExp(`${VERB}.*${TIME}|${TIME}.*${VERB}`);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('figures in comments', () => {
  it('are in docs/performance.md, not in the source', () => {
    const found = sources(SRC).flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          COMMENT.test(line) && FIGURE.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('catches a measured figure (the check itself works)', () => {
    expect(FIGURE.test('// the join took 17 µs a call')).toBe(true);
    expect(FIGURE.test('// held the main thread 50–70 ms')).toBe(true);
    expect(FIGURE.test('/** Retried 250 ms … 4 s apart. */')).toBe(false);
  });
});
