// .oxlintrc.json is generated from the core import map in docs/architecture.md: every core
// folder has exactly one row there, and the committed file is what the table generates.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { importMap, lintConfig } from '../../scripts/lintConfig.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
type Row = { folder: string; imports: string[] };

describe('the lint config generated from the import map', () => {
  it('has one row for each core folder, naming only core folders', () => {
    const folders = fs
      .readdirSync(path.join(root, 'src/main/core'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const rows = importMap(doc) as Row[];
    expect(rows.map((r) => r.folder).sort()).toEqual(folders);
    for (const row of rows) for (const imported of row.imports) expect(folders).toContain(imported);
  });

  it('is the committed .oxlintrc.json', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(root, '.oxlintrc.json'), 'utf8'));
    expect(committed).toEqual(lintConfig(doc));
  });

  it('refuses a map without its table', () => {
    expect(() => importMap('# nothing here')).toThrow(/has no "## Core folders/);
  });
});
