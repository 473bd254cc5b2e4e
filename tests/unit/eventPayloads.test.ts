// Issue 25's typed events: every listener gets its payload typed from the contract
// (`bus.on`, `api.on`), so no source file casts an event payload by hand. A cast would
// compile and then break silently when the contract changes.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('event payloads in src/', () => {
  it('are never cast with `payload as`', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const casts = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bpayload\)? as\b/.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(casts).toEqual([]);
  });
});
