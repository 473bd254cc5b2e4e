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

/**
 * Plan review is on by default for new conversations; tests of other features run with
 * it off (as their conversations would have before it existed) unless they ask for it.
 * Writes settings.json only when the data dir has none, so a restart keeps its settings.
 */
export function seedPlanReviewOff(dataDir: string): void {
  const file = path.join(dataDir, 'settings.json');
  if (fs.existsSync(file)) return;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify({ planReviewDefault: 'off' }), { mode: 0o600 });
}
