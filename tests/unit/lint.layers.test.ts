// The layer rules of DEVELOPERS.md are enforced by `npm run lint`. This lints a scratch
// tree with the project's own .oxlintrc.json: every forbidden import is reported, with the
// message that explains the rule, and every allowed import passes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../support/tempDir';

const root = path.resolve(import.meta.dirname, '../..');
const oxlint = path.join(root, 'node_modules/oxlint/bin/oxlint');

interface Case {
  file: string;
  imports: string[];
}

/** Imports each layer must not make, with a word from the message that explains why. */
const forbidden: Array<Case & { why: RegExp }> = [
  {
    file: 'src/shared/bad.ts',
    imports: ['../main/core/createCore', '../renderer/App'],
    why: /imports nothing of ours/,
  },
  {
    file: 'src/shared/bad2.ts',
    imports: ['node:fs', 'electron', 'better-sqlite3', 'react', 'openai'],
    why: /pure TypeScript/,
  },
  { file: 'src/main/core/bad.ts', imports: ['electron', 'electron-store'], why: /never imports Electron/ },
  {
    file: 'src/main/core/bad2.ts',
    imports: ['../electron/main', '../host/server'],
    why: /must not import the Electron adapter or the browser host/,
  },
  {
    file: 'src/main/core/sub/bad3.ts',
    imports: ['../../../renderer/App', '../../../preload/index'],
    why: /must not import the renderer or preload/,
  },
  { file: 'src/main/electron/bad.ts', imports: ['../host/server'], why: /must not import the browser host/ },
  {
    file: 'src/main/electron/bad2.ts',
    imports: ['../../renderer/App', '../../preload/index'],
    why: /must not import the renderer or preload/,
  },
  { file: 'src/main/host/bad.ts', imports: ['electron', 'electron-store'], why: /runs without Electron/ },
  { file: 'src/main/host/bad2.ts', imports: ['../electron/main'], why: /must not import the Electron adapter/ },
  {
    file: 'src/main/host/bad3.ts',
    imports: ['../../renderer/App', '../../preload/index'],
    why: /must not import the renderer or preload/,
  },
  { file: 'src/preload/bad.ts', imports: ['../main/core/createCore', '../renderer/App'], why: /shared contract only/ },
  {
    file: 'src/renderer/bad.tsx',
    imports: ['../main/core/createCore', '../preload/index'],
    why: /only through the typed API/,
  },
  {
    file: 'src/renderer/chat/bad2.tsx',
    imports: ['node:fs', 'fs', 'path', 'electron', 'better-sqlite3', 'conf', 'ws', 'openai'],
    why: /never sees Node, SQL, keys or files/,
  },
];

/** What each layer may import. */
const allowed: Case[] = [
  { file: 'src/shared/ok.ts', imports: ['zod', './domain'] },
  {
    file: 'src/main/core/ok.ts',
    imports: ['../../shared/ipc', 'node:fs', 'better-sqlite3', 'conf', 'openai', './db/openDatabase'],
  },
  {
    file: 'src/main/electron/ok.ts',
    imports: ['electron', 'electron-store', '../core/createCore', '../../shared/ipc'],
  },
  { file: 'src/main/host/ok.ts', imports: ['ws', 'node:http', '../core/createCore', '../../shared/ipc'] },
  { file: 'src/preload/ok.ts', imports: ['electron', '../shared/ipc'] },
  { file: 'src/renderer/ok.tsx', imports: ['react', 'react-dom/client', 'zod', '../shared/ipc', './common/Menu'] },
];

interface Override {
  files: string[];
  rules: { 'no-restricted-imports'?: [string, { patterns: Array<{ group: string[]; message: string }> }] };
}

/** The core import map as .oxlintrc.json states it: each core folder and the folders it may import. */
function coreImportMap(): Map<string, string[]> {
  const config = JSON.parse(fs.readFileSync(path.join(root, '.oxlintrc.json'), 'utf8')) as { overrides: Override[] };
  const map = new Map<string, string[]>();
  for (const o of config.overrides) {
    const folder = /^src\/main\/core\/([^/*]+)\/\*\*$/.exec(o.files[0] ?? '')?.[1];
    const group = o.rules['no-restricted-imports']?.[1].patterns.find((p) => p.group[0] === '../**')?.group;
    if (folder && group)
      map.set(
        folder,
        group.flatMap((g) => /^!\.\.\/([^/.]+)\/\*\*$/.exec(g)?.[1] ?? []),
      );
  }
  return map;
}
const importMap = coreImportMap();
const coreFolders = [...importMap.keys()];

/**
 * Per core folder: a file importing every folder it may import (and shared) and one it
 * may not; only the latter is reported, with the map's message.
 */
const mapCases = coreFolders.map((folder) => {
  const may = importMap.get(folder)!;
  const mayNot = coreFolders.find((other) => other !== folder && !may.includes(other))!;
  return {
    folder,
    file: `src/main/core/${folder}/mapProbe.ts`,
    allowedImports: [...may.map((m) => `../${m}/anything`), '../../../shared/ipc'],
    forbiddenImport: `../${mayNot}/anything`,
  };
});

/** One file per case: namespace imports, all used, so only the layer rules can fire. */
function source(imports: string[]): string {
  const lines = imports.map((spec, i) => `import * as m${i} from '${spec}';`);
  lines.push(`export const used = [${imports.map((_, i) => `m${i}`).join(', ')}];`);
  return `${lines.join('\n')}\n`;
}

interface Diagnostic {
  message: string;
  code: string;
  help?: string;
  filename: string;
}

let dir: string;
let diagnostics: Diagnostic[];

beforeAll(() => {
  dir = makeTempDir('stepwise-lint-');
  fs.copyFileSync(path.join(root, '.oxlintrc.json'), path.join(dir, '.oxlintrc.json'));
  // The config loads Stepwise's own rules from beside it.
  fs.cpSync(path.join(root, 'scripts/lint'), path.join(dir, 'scripts/lint'), { recursive: true });
  for (const c of [...forbidden, ...allowed]) {
    fs.mkdirSync(path.dirname(path.join(dir, c.file)), { recursive: true });
    fs.writeFileSync(path.join(dir, c.file), source(c.imports));
  }
  for (const c of mapCases) {
    fs.mkdirSync(path.dirname(path.join(dir, c.file)), { recursive: true });
    fs.writeFileSync(path.join(dir, c.file), source([...c.allowedImports, c.forbiddenImport]));
  }
  // A dynamic import is an import too.
  fs.writeFileSync(path.join(dir, 'src/main/core/lazy.ts'), "export const load = () => import('electron');\n");
  let output: string;
  try {
    output = execFileSync(process.execPath, [oxlint, '--deny-warnings', '-c', '.oxlintrc.json', '-f', 'json', 'src'], {
      cwd: dir,
      encoding: 'utf8',
    });
  } catch (error) {
    // Exit code 1 means "violations found": exactly what this test expects.
    output = (error as { stdout: string }).stdout;
  }
  diagnostics = (JSON.parse(output) as { diagnostics: Diagnostic[] }).diagnostics;
}, 30_000);

afterAll(() => removeDir(dir));

const reported = (file: string) =>
  diagnostics
    .filter((d) => d.filename === file)
    .map((d) => ({ spec: /^'(.+)' import is restricted/.exec(d.message)?.[1], d }));

describe('layer rules in .oxlintrc.json', () => {
  it('npm run lint uses this config on the source tree and fails on warnings', () => {
    const lint = (
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts.lint;
    expect(lint).toMatch(/^oxlint /);
    expect(lint).toContain('-c .oxlintrc.json');
    expect(lint).toContain('--deny-warnings');
    expect(lint.split(' ')).toContain('src');
    expect(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).toMatch(
      /"test": "npm run typecheck && npm run lint && /,
    );
  });

  it.each(forbidden)('$file: reports each forbidden import', ({ file, imports, why }) => {
    const found = reported(file);
    expect(found.map((f) => f.spec).sort()).toEqual([...imports].sort());
    for (const { d } of found) {
      expect(d.code).toBe('eslint(no-restricted-imports)');
      expect(d.help).toMatch(why);
    }
  });

  it('reports a dynamic import of Electron in core', () => {
    expect(reported('src/main/core/lazy.ts').map((f) => f.spec)).toEqual(['electron']);
  });

  it.each(allowed)('$file: allowed imports pass', ({ file }) => {
    expect(reported(file)).toEqual([]);
  });

  it('lists what each core folder may import, with no two folders importing each other', () => {
    expect(coreFolders.length).toBeGreaterThan(15);
    for (const [folder, may] of importMap) {
      for (const other of may)
        expect(importMap.get(other) ?? [], `${folder} and ${other} import each other`).not.toContain(folder);
    }
  });

  // Two runs of dpdm, each a Node process that loads TypeScript: more than a unit test's 5 s on a busy machine.
  it('fails on an import cycle, type-only imports included', { timeout: 30_000 }, () => {
    const lint = (
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts.lint;
    expect(lint).toContain('dpdm --no-warning --no-tree --exit-code circular:1');
    const cycle = path.join(dir, 'cycle');
    fs.mkdirSync(cycle);
    fs.writeFileSync(path.join(cycle, 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
    fs.writeFileSync(path.join(cycle, 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
    const dpdm = path.join(root, 'node_modules/dpdm/lib/bin/dpdm.js');
    const run = () =>
      execFileSync(process.execPath, [dpdm, '--no-warning', '--no-tree', '--exit-code', 'circular:1', 'a.ts'], {
        cwd: cycle,
        encoding: 'utf8',
      });
    expect(run).toThrow();
    fs.writeFileSync(path.join(cycle, 'b.ts'), 'export interface B { n?: number }\n');
    expect(run()).toContain('no circular dependency');
  });

  it.each(mapCases)(
    'core/$folder: reports an import of a folder outside its map, and only that',
    ({ file, forbiddenImport, folder }) => {
      const found = reported(file);
      expect(found.map((f) => f.spec)).toEqual([forbiddenImport]);
      expect(found[0].d.help).toContain(`src/main/core/${folder} may import`);
    },
  );

  it('reports nothing else', () => {
    const expectedFiles = new Set([
      ...forbidden.map((c) => c.file),
      ...mapCases.map((c) => c.file),
      'src/main/core/lazy.ts',
    ]);
    expect(diagnostics.filter((d) => !expectedFiles.has(d.filename))).toEqual([]);
    expect(diagnostics.every((d) => d.code === 'eslint(no-restricted-imports)')).toBe(true);
  });
});
