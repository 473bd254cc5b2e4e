// `npm run lint` fails on a core module that subscribes without disposing, on a store
// that is never disposed, and on `subscribe(` (every event, untyped) outside the
// transports: scripts/lint/stepwiseRules.mjs, loaded by the generated .oxlintrc.json. This
// lints a scratch tree with the project's own config and rules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../support/tempDir';

const root = path.resolve(import.meta.dirname, '../..');
const oxlint = path.join(root, 'node_modules/oxlint/bin/oxlint');

/** Core files, each with the lines (1-based) where a rule must report, and which rule. */
const probes: Record<string, { source: string; reports: Array<[number, string]> }> = {
  'src/main/core/probe/dropped.ts': {
    source: [
      'export function create(bus: any, chat: any, tools: any, recheck: () => void) {',
      "  bus.on('tasks:changed', () => recheck());",
      "  chat.onTurnEnd('plans', () => recheck());",
      '  tools.onRan(() => recheck());',
      "  const off = bus.on('settings:changed', recheck);",
      '  return { off };',
      '}',
    ].join('\n'),
    reports: [
      [2, 'dispose-subscriptions'],
      [3, 'dispose-subscriptions'],
      [4, 'dispose-subscriptions'],
      [5, 'dispose-subscriptions'],
    ],
  },
  'src/main/core/probe/untyped.ts': {
    source: [
      'export function create(deps: any, disposables: any) {',
      "  deps.bus.subscribe((event: string) => event === 'chat:status', disposables);",
      '}',
    ].join('\n'),
    reports: [[2, 'no-untyped-subscribe']],
  },
  'src/main/core/probe/neverDisposed.ts': {
    source: [
      "import { DisposableStore } from '../../../shared/event';",
      'export function create(bus: any) {',
      '  const disposables = new DisposableStore();',
      "  bus.on('tasks:changed', () => {}, disposables);",
      '  return {};',
      '}',
    ].join('\n'),
    reports: [[3, 'dispose-subscriptions']],
  },
  'src/main/core/probe/released.ts': {
    source: [
      "import { DisposableStore } from '../../../shared/event';",
      'export function create(deps: any, run: any, options: any) {',
      '  const disposables = new DisposableStore();',
      "  deps.bus.on('tasks:changed', () => {}, disposables);",
      "  deps.chat.onTurnEnd('plans', () => {}, disposables);",
      '  deps.onPlanApproved?.(() => {}, disposables);',
      "  disposables.add(deps.bus.on('settings:changed', () => {}));",
      "  run.onActivity?.('streaming');",
      '  options.onChange();',
      '  return {',
      "    onTasks: (listener: () => void) => deps.bus.on('tasks:changed', listener),",
      '    dispose: () => disposables.dispose(),',
      '  };',
      '}',
    ].join('\n'),
    reports: [],
  },
  // Outside core the rules do not apply (the transports forward every event).
  'src/main/host/forward.ts': {
    source: 'export const forward = (core: any) => core.bus.subscribe(() => {});\n',
    reports: [],
  },
};

interface Diagnostic {
  message: string;
  code: string;
  filename: string;
  labels: Array<{ span: { line: number } }>;
}

let dir: string;
let diagnostics: Diagnostic[];

beforeAll(() => {
  dir = makeTempDir('stepwise-lint-events-');
  fs.copyFileSync(path.join(root, '.oxlintrc.json'), path.join(dir, '.oxlintrc.json'));
  fs.cpSync(path.join(root, 'scripts/lint'), path.join(dir, 'scripts/lint'), { recursive: true });
  for (const [file, { source }] of Object.entries(probes)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), source);
  }
  let output: string;
  try {
    output = execFileSync(process.execPath, [oxlint, '-c', '.oxlintrc.json', '-f', 'json', 'src'], {
      cwd: dir,
      encoding: 'utf8',
    });
  } catch (error) {
    // Exit code 1 means "violations found": what most probes are for.
    output = (error as { stdout: string }).stdout;
  }
  diagnostics = (JSON.parse(output) as { diagnostics: Diagnostic[] }).diagnostics.filter((d) =>
    d.code.startsWith('stepwise('),
  );
}, 30_000);

afterAll(() => removeDir(dir));

describe('the event rules of npm run lint', () => {
  it('are loaded by the generated config for core', () => {
    const config = JSON.parse(fs.readFileSync(path.join(root, '.oxlintrc.json'), 'utf8')) as {
      jsPlugins: string[];
      overrides: Array<{ files: string[]; rules: Record<string, unknown> }>;
    };
    expect(config.jsPlugins).toEqual(['./scripts/lint/stepwiseRules.mjs']);
    const core = config.overrides.find((o) => o.files.join() === 'src/main/core/**');
    expect(core?.rules).toMatchObject({
      'stepwise/dispose-subscriptions': 'error',
      'stepwise/no-untyped-subscribe': 'error',
    });
  });

  it.each(Object.entries(probes))('%s', (file, { reports }) => {
    const found = diagnostics
      .filter((d) => d.filename === file)
      .map((d) => [d.labels[0].span.line, /^stepwise\((.+)\)$/.exec(d.code)?.[1]])
      .sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(found).toEqual(reports);
  });

  it('explains the fix in each report', () => {
    const messages = new Set(diagnostics.map((d) => d.message));
    expect([...messages].some((m) => m.includes("pass the module's DisposableStore after the listener"))).toBe(true);
    expect([...messages].some((m) => m.includes('is never disposed'))).toBe(true);
    expect([...messages].some((m) => m.includes('subscribe( is for the transports'))).toBe(true);
  });
});
