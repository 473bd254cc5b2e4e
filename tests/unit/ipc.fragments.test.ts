// The contract is assembled from feature fragments (`src/shared/<feature>Contract.ts`):
// every call and event lives in exactly one fragment, and `ipc.ts` only lists them. A
// spread would silently let a second fragment replace a call of the same name, so the
// fragments are checked to be disjoint here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callNames, eventNames } from '../../src/shared/ipc';

const shared = path.resolve(import.meta.dirname, '../../src/shared');
const fragments = import.meta.glob<Record<string, unknown>>('../../src/shared/*Contract.ts', { eager: true });

/** Every exported `…Calls` (or `…Events`) table of every fragment, by file and export name. */
function tables(suffix: 'Calls' | 'Events') {
  return Object.entries(fragments).flatMap(([file, exports]) =>
    Object.entries(exports)
      .filter(([name, value]) => name.endsWith(suffix) && typeof value === 'object' && value !== null)
      .map(([name, value]) => ({ where: `${path.basename(file)} ${name}`, names: Object.keys(value as object) })),
  );
}

function owners(suffix: 'Calls' | 'Events') {
  const byName = new Map<string, string[]>();
  for (const { where, names } of tables(suffix)) {
    for (const name of names) byName.set(name, [...(byName.get(name) ?? []), where]);
  }
  return byName;
}

describe('contract fragments', () => {
  it('hold every call of the contract, each in exactly one fragment', () => {
    const byName = owners('Calls');
    expect(callNames.filter((name) => !byName.has(name))).toEqual([]);
    expect([...byName].filter(([, where]) => where.length > 1)).toEqual([]);
    expect([...byName.keys()].sort()).toEqual([...callNames].sort());
  });

  it('hold every event of the contract, each in exactly one fragment', () => {
    const byName = owners('Events');
    expect(eventNames.filter((name) => !byName.has(name))).toEqual([]);
    expect([...byName].filter(([, where]) => where.length > 1)).toEqual([]);
    expect([...byName.keys()].sort()).toEqual([...eventNames].sort());
  });

  it('leave ipc.ts only assembling them: no call or schema is defined there', () => {
    const source = fs.readFileSync(path.join(shared, 'ipc.ts'), 'utf8');
    const assembled = source.slice(source.indexOf('export const calls'), source.indexOf('export type Calls'));
    expect(assembled).not.toBe('');
    // Between the two tables there are only spreads of fragments.
    const lines = assembled
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !/^\.\.\.\w+,$/.test(line));
    expect(lines).toEqual(['export const calls = {', '} as const;', 'export const events = {', '} as const;']);
  });
});
