// Mistakes on the command line get a usage line and exit code 2, never a stack trace:
// `npm run serve` (the built host, and scripts/serve.mjs as npm runs it) and the CLI.
import fs from 'node:fs';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { makeDataDir, ROOT, runHostToExit, SERVE_SCRIPT } from './support/app';

const SERVE_USAGE = 'Usage: npm run serve -- [--port <n>] [--data-dir <dir>]';

it.each([
  ['the built host', undefined],
  ['npm run serve', SERVE_SCRIPT],
])('%s refuses an unknown option with the usage line and exit code 2', async (_name, script) => {
  const dataDir = makeDataDir();
  try {
    const { code, stdout, stderr } = await runHostToExit({
      dataDir,
      script,
      rawArgs: ['--host', '0.0.0.0', '--data-dir', dataDir],
    });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`stepwise: Unknown option '--host'.\n${SERVE_USAGE}\n`);
    // Refused before anything was written.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it('the built CLI refuses an unknown option the same way', async () => {
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [path.join(ROOT, 'out/main/cli.js'), 'list', '--host', '0.0.0.0'],
      { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
  expect(result).toEqual({
    code: 2,
    stdout: '',
    stderr:
      "stepwise: Unknown option '--host'.\nUsage: npm run cli -- list|export|export-conversation [options] (`npm run cli -- help` for details)\n",
  });
});
