// Throwaway directories under the OS temp dir for tests that need real files (SQLite,
// settings, a host's data dir). Each test removes what it made.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function makeTempDir(prefix = 'stepwise-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A temp dir per test: call in a describe block, read `.path` inside tests. */
export function tempDirPerTest(
  hooks: { beforeEach(fn: () => void): void; afterEach(fn: () => void): void },
  prefix?: string,
): { readonly path: string } {
  let current = '';
  hooks.beforeEach(() => {
    current = makeTempDir(prefix);
  });
  hooks.afterEach(() => removeDir(current));
  return {
    get path() {
      return current;
    },
  };
}
