// Writes .oxlintrc.json from one table: the core import map in docs/architecture.md
// ("Core folders and what each may import"). The layers around core are fixed below, and
// core gets Stepwise's own event rules (scripts/lint/stepwiseRules.mjs).
// `node scripts/lintConfig.mjs` writes the file; `--check` fails when it is out of date,
// so the map is edited in one place (the docs) and lint follows it.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const TABLE_HEADING = '## Core folders and what each may import';

const rule = (...patterns) => ({ rules: { 'no-restricted-imports': ['error', { patterns }] } });
const pattern = (group, message) => ({ group, message });

const coreBase = [
  pattern(
    ['electron', 'electron-store'],
    'src/main/core never imports Electron; put Electron code in src/main/electron.',
  ),
  pattern(
    ['**/main/electron/**', '**/electron/*', '**/host/*', '**/main/host/**'],
    'src/main/core must not import the Electron adapter or the browser host.',
  ),
  pattern(
    ['**/renderer/**', '**/renderer/*', '**/preload/**', '**/preload/*'],
    'src/main/core must not import the renderer or preload.',
  ),
];

/** Stepwise's own rules (scripts/lint/stepwiseRules.mjs): core modules release what they subscribe to. */
export const STEPWISE_RULES = './scripts/lint/stepwiseRules.mjs';
const eventRules = { 'stepwise/dispose-subscriptions': 'error', 'stepwise/no-untyped-subscribe': 'error' };

const base = {
  $schema: './node_modules/oxlint/configuration_schema.json',
  plugins: ['typescript', 'react', 'import', 'unicorn'],
  jsPlugins: [STEPWISE_RULES],
  categories: { correctness: 'error' },
  env: { browser: true, node: true, es2024: true },
  ignorePatterns: ['out/**', 'dist/**', 'node_modules/**'],
  rules: {
    'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    eqeqeq: ['error', 'smart'],
    'no-console': 'off',
    'react/jsx-key': 'error',
    'react/rules-of-hooks': 'error',
    'react/incompatible-library': 'off',
    'typescript/no-explicit-any': 'error',
  },
};

const before = [
  {
    files: ['src/shared/**'],
    ...rule(
      pattern(['../*', '../**'], 'src/shared imports nothing of ours outside src/shared.'),
      pattern(
        ['electron', 'electron-store', 'node:*', 'better-sqlite3', 'conf', 'ws', 'openai', 'react', 'react-dom'],
        'src/shared is pure TypeScript: no Node, Electron, database or UI libraries.',
      ),
    ),
  },
  { files: ['src/main/core/**'], rules: { ...rule(...coreBase).rules, ...eventRules } },
];

const after = [
  {
    files: ['src/main/electron/**'],
    ...rule(
      pattern(['**/host/*', '**/main/host/**'], 'The Electron adapter must not import the browser host.'),
      pattern(
        ['**/renderer/**', '**/renderer/*', '**/preload/**', '**/preload/*'],
        'The Electron adapter must not import the renderer or preload.',
      ),
    ),
  },
  {
    files: ['src/main/host/**'],
    ...rule(
      pattern(['electron', 'electron-store'], 'The browser host runs without Electron.'),
      pattern(['**/electron/*', '**/main/electron/**'], 'The browser host must not import the Electron adapter.'),
      pattern(
        ['**/renderer/**', '**/renderer/*', '**/preload/**', '**/preload/*'],
        'The browser host must not import the renderer or preload.',
      ),
    ),
  },
  {
    files: ['src/preload/**'],
    ...rule(
      pattern(
        ['**/main/**', '**/main/*', '**/renderer/**', '**/renderer/*'],
        'The preload exposes the shared contract only.',
      ),
    ),
  },
  {
    files: ['src/renderer/**'],
    ...rule(
      pattern(
        ['**/main/**', '**/main/*', '**/preload/**', '**/preload/*'],
        'The renderer talks to main only through the typed API (src/shared/ipc.ts).',
      ),
      pattern(
        ['electron', 'electron-store', 'node:*', 'fs', 'path', 'better-sqlite3', 'conf', 'ws', 'openai'],
        'The renderer never sees Node, SQL, keys or files.',
      ),
    ),
  },
];

/** The rows of the import map: `| \`folder\` | owns | a, b, c |` ("—" for none). */
export function importMap(markdown) {
  const start = markdown.indexOf(TABLE_HEADING);
  if (start < 0) throw new Error(`docs/architecture.md has no "${TABLE_HEADING}" section`);
  const rows = [];
  for (const line of markdown.slice(start).split('\n').slice(1)) {
    if (line.startsWith('#')) break;
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`([A-Za-z]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!folder) continue;
    const last = cells[cells.length - 2] ?? '';
    const imports = last === '—' ? [] : last.split(',').map((s) => s.trim());
    rows.push({ folder, imports });
  }
  if (rows.length === 0) throw new Error('the core import map in docs/architecture.md has no rows');
  return rows;
}

function coreOverride({ folder, imports }) {
  const allowed = imports.length ? imports.join(', ') : 'no other core folder';
  return {
    files: [`src/main/core/${folder}/**`],
    ...rule(
      ...coreBase,
      pattern(
        ['../**', ...imports.map((i) => `!../${i}/**`), '!../../../shared/**'],
        `src/main/core/${folder} may import ${allowed} (and src/shared): see the core import map in docs/architecture.md. Move the piece to its owner rather than widening the map.`,
      ),
    ),
  };
}

export function lintConfig(markdown) {
  return { ...base, overrides: [...before, ...importMap(markdown).map(coreOverride), ...after] };
}

const file = path.join(root, '.oxlintrc.json');
const text =
  JSON.stringify(lintConfig(fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')), null, 2) + '\n';
if (process.argv.includes('--check')) {
  if (fs.readFileSync(file, 'utf8') !== text) {
    console.error(
      '.oxlintrc.json is out of date with the import map in docs/architecture.md: run `npm run lint:config`.',
    );
    process.exit(1);
  }
} else {
  fs.writeFileSync(file, text);
}
