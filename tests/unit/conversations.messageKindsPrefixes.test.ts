// What a message is comes from its kind, never from its text: the old control prefixes
// appear in src/ only where old texts are read (the migration's and the import's parser)
// and where the model's text is made from a kind's payload (the kinds' one table).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const PREFIXES = ['PLAN_APPROVED', 'PLAN_CHANGES_REQUESTED', 'PLAN_CHANGED', 'NEXT_TODO', '[Stopped at '];
const ALLOWED = new Set([
  // Migration 24 and the import of older exports read the old texts here.
  'main/core/db/legacyMessages.ts',
  // The text the model reads, made from kind and payload when a request is built.
  'shared/messageKinds.ts',
]);

describe('old message prefixes', () => {
  it('appear in src/ only in the legacy reader and the model-text table', () => {
    const files = fs
      .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|tsx)$/.test(file))
      .map((file) => file.split(path.sep).join('/'));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) => {
      if (ALLOWED.has(file)) return [];
      const text = fs.readFileSync(path.join(SRC, file), 'utf8');
      return PREFIXES.filter((prefix) => text.includes(prefix)).map((prefix) => `${file}: ${prefix}`);
    });
    expect(offenders).toEqual([]);
  });

  it('the allowed files exist and hold them (the list does not go stale)', () => {
    for (const file of ALLOWED) {
      const text = fs.readFileSync(path.join(SRC, file), 'utf8');
      expect(
        PREFIXES.some((prefix) => text.includes(prefix)),
        file,
      ).toBe(true);
    }
  });
});
