// Builds main, preload, host and renderer with electron-vite. Used by `npm run build`,
// `npm run serve` (when the build is missing or stale) and the e2e tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'out', '.build-stamp');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function buildIsFresh() {
  if (!fs.existsSync(stamp)) return false;
  const built = fs.statSync(stamp).mtimeMs;
  const inputs = [path.join(root, 'src'), path.join(root, 'docs')].filter((d) => fs.existsSync(d));
  const configs = ['package.json', 'electron.vite.config.ts'].map((f) => fs.statSync(path.join(root, f)).mtimeMs);
  return Math.max(...inputs.map(newestMtime), ...configs) < built;
}

export function build({ quiet = false } = {}) {
  const bin = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: quiet ? 'pipe' : 'inherit' });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(result.stdout?.toString() ?? '', () => {});
    if (quiet) process.stderr.write(result.stderr?.toString() ?? '');
    throw new Error('Build failed');
  }
  fs.writeFileSync(stamp, new Date().toISOString());
}

/**
 * Builds quietly when stale (so standard output carries only what the program prints),
 * then runs `out/main/<entry>.js` with this process's arguments and exit code. A program
 * ended by a signal this process did not pass on (kill -9, the OOM killer) would leave a
 * terminal that looks as if it still ran: one line on stderr says so, and the exit code is
 * the shell's for that signal (128 + its number).
 */
export async function runBuilt(entry) {
  if (!buildIsFresh()) {
    try {
      build({ quiet: true });
    } catch {
      process.exit(1);
    }
  }
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [path.join(root, 'out', 'main', `${entry}.js`), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  let passedOn = null;
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      passedOn = signal;
      child.kill(signal);
    });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 0);
    if (signal !== passedOn) {
      process.stderr.write(`Stepwise's ${entry} (pid ${child.pid}) was ended by ${signal}; it is no longer running.\n`);
    }
    process.exit(128 + (os.constants.signals[signal] ?? 0));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.argv.includes('--if-stale') || !buildIsFresh()) build();
}
