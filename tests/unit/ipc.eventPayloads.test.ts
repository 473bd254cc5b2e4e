// Issue 25's typed events: every listener gets its payload typed from the contract
// (`bus.on`, `api.on`), so no source file casts an event payload by hand. A cast would
// compile and then break silently when the contract changes.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

const sourceFiles = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => path.join(dir, name));

describe('event payloads in src/', () => {
  it('are never cast with `payload as`', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const casts = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\bpayload\)? as\b/.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(casts).toEqual([]);
  });
});
