// One entry-file name per core folder: each capability's `create<Capability>(deps)` lives
// in the folder's one `*Module.ts`, and the "One module shape" table of
// docs/architecture.md names each of them. A folder that answers contract calls is in the
// table, so a new capability cannot pick a name of its own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const core = path.join(root, 'src/main/core');
const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

/** Rows of the "Factory (file)" table: `| \`folder\` | \`createX\` (\`file.ts\`) | … |`. */
function entries() {
  const table = doc.slice(doc.indexOf('| Folder | Factory (file) |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  return rows.map((row) => {
    const match = /^\| `(\w+)` \| `(\w+)` \(`([\w.]+)`\) \|/.exec(row);
    if (!match) throw new Error(`Unreadable row of the module table: ${row}`);
    return { folder: match[1], factory: match[2], file: match[3] };
  });
}

const folders = fs
  .readdirSync(core, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** A handler table typed from a fragment (`const handlers: HandlersFor<typeof xCalls>`), not a comment naming one. */
const ANSWERS = /(?:[:=]|satisfies)\s*HandlersFor<typeof \w+>/;
const filesOf = (folder: string) => fs.readdirSync(path.join(core, folder)).filter((f) => f.endsWith('.ts'));

describe('core entry files', () => {
  it('are each folder’s one *Module.ts, holding the factory the table names', () => {
    const rows = entries();
    expect(rows.length).toBeGreaterThan(20);
    for (const { folder, factory, file } of rows) {
      expect(file, folder).toMatch(/Module\.ts$/);
      expect(
        filesOf(folder).filter((f) => f.endsWith('Module.ts')),
        folder,
      ).toEqual([file]);
      const source = fs.readFileSync(path.join(core, folder, file), 'utf8');
      expect(source, `${folder}/${file}`).toMatch(new RegExp(`export function ${factory}\\(`));
    }
  });

  it('exist for every folder that answers contract calls, and nowhere else', () => {
    const listed = new Set(entries().map((row) => row.folder));
    const answering = folders.filter((folder) =>
      filesOf(folder).some((f) => ANSWERS.test(fs.readFileSync(path.join(core, folder, f), 'utf8'))),
    );
    expect(answering.filter((folder) => !listed.has(folder))).toEqual([]);
    const stray = folders.filter(
      (folder) => !listed.has(folder) && filesOf(folder).some((f) => f.endsWith('Module.ts')),
    );
    expect(stray).toEqual([]);
  });
});
