// `npm start` where Electron's binary cannot be downloaded: one paragraph that names
// `npm run serve` and ELECTRON_MIRROR, exit code 1, no stack trace. The mirror points at a
// loopback port where nothing listens, so the download fails here without any network.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDirPerTest } from '../support/tempDir';

const root = path.resolve(import.meta.dirname, '../..');
const installed = fs.existsSync(path.join(root, 'node_modules/electron/path.txt'));
const dir = tempDirPerTest({ beforeEach, afterEach });

it.skipIf(installed)('explains a failed Electron download in one paragraph without a stack trace', () => {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/ensure-electron.mjs')], {
    cwd: root,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: dir.path,
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      electron_config_cache: dir.path,
    },
    timeout: 60_000,
  });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('Downloading Electron (first start only)…\n');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Stepwise could not download Electron, which the desktop app needs \(.+\)\. /);
  expect(lines[0]).toContain('`npm run serve`');
  expect(lines[0]).toContain('ELECTRON_MIRROR');
  expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  expect(fs.existsSync(path.join(root, 'node_modules/electron/path.txt'))).toBe(false);
});
