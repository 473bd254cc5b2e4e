// The official MCP conformance suite's client scenarios (`@modelcontextprotocol/conformance`),
// run by its own runner against Stepwise's client (tests/support/mcpConformanceClient.ts),
// offline: every server and authorization server is the runner's, on this machine. Every
// scenario passes except the ones for what Stepwise does not do (docs/tools.md, "MCP
// features"): machine-to-machine grants and enterprise-managed authorization. The client
// runs as one esbuild bundle of the same file (what `tsx` would run, built once): the runner
// starts a client per scenario, in parallel, and tsx would compile it again for each.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../support/tempDir';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNNER = path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const CLIENT = path.join(root, 'tests/support/mcpConformanceClient.ts');

/** Scenarios for grants Stepwise does not offer (the "extensions" suite): no user signs in. */
const NOT_SUPPORTED = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
];
/** The suites that hold every other client scenario. */
const SUITES = ['core', 'backcompat', 'draft'];

const out = makeTempDir('stepwise-conformance-');
afterAll(() => removeDir(out));
/** The bundle sits beside a link to node_modules, so its packages resolve as from the repo. */
const bundle = path.join(out, 'client.mjs');
beforeAll(async () => {
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  const { build } = await import('esbuild');
  await build({
    entryPoints: [CLIENT],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
  });
});

function runRunner(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUNNER, ...args], {
      cwd: out,
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** `<dir>/auth/metadata-default-2026-…Z/checks.json` → scenario name → its checks. */
function readResults(dir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const file of fs.globSync('**/checks.json', { cwd: dir })) {
    const scenario = path
      .dirname(file)
      .replace(/\\/g, '/')
      .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    results.set(scenario, JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Check[]);
  }
  return results;
}

it('passes every client scenario of the official conformance suite for what Stepwise supports', async () => {
  const listed = await runRunner(['list']);
  const clientScenarios = listed.output
    .split('Client scenarios')[1]
    .split('\n')
    .map((line) => /^\s+- (\S+)/.exec(line)?.[1])
    .filter((name): name is string => !!name);
  expect(clientScenarios).toEqual(expect.arrayContaining(['initialize', 'auth/metadata-default', ...NOT_SUPPORTED]));

  const command = `${process.execPath} ${bundle}`;
  for (const suite of SUITES) {
    const run = await runRunner(['client', '--command', command, '--suite', suite, '--timeout', '90000', '-o', suite]);
    expect(run.output).toContain('Total:');
  }
  const results = new Map(SUITES.flatMap((suite) => [...readResults(path.join(out, suite))]));
  expect([...results.keys()].sort()).toEqual(clientScenarios.filter((s) => !NOT_SUPPORTED.includes(s)).sort());

  const failed = [...results].flatMap(([scenario, checks]) =>
    checks
      .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
      // How soon a reconnection came is a timing, not a behaviour: on a loaded machine it is
      // late. Reconnecting too early would ignore the server's retry field, and fails.
      .filter(
        (check) =>
          !(
            scenario === 'sse-retry' &&
            check.id === 'client-sse-retry-timing' &&
            !/too early/.test(check.errorMessage ?? '')
          ),
      )
      .map((check) => `${scenario}: ${check.id} ${check.status} ${check.errorMessage ?? ''}`),
  );
  expect(failed).toEqual([]);
  // The scenario the timing is measured in still reconnected, resuming where the stream ended.
  const sse = results.get('sse-retry')!;
  expect(sse.find((c) => c.id === 'client-sse-graceful-reconnect')?.status).toBe('SUCCESS');
  expect(sse.find((c) => c.id === 'client-sse-last-event-id')?.status).toBe('SUCCESS');
}, 600_000);
