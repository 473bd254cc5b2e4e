// docs/schema.sql is the schema every migration together leaves: regenerate it with
// `npm run schema` whenever a migration is added.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { LATEST_VERSION } from '../../src/main/core/db/databaseFile';
import { dumpSchema } from '../../src/main/core/db/schemaDump';
import { tempDirPerTest } from '../support/tempDir';

const dir = tempDirPerTest({ beforeEach, afterEach });

describe('docs/schema.sql', () => {
  it('is the schema of a freshly migrated database (run `npm run schema` after adding a migration)', () => {
    const { db } = openDatabase(dir.path);
    try {
      const fresh = dumpSchema(db);
      const documented = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/schema.sql'), 'utf8');
      expect(documented, 'docs/schema.sql is out of date: run `npm run schema`').toBe(fresh);
      expect(fresh).toContain(`(user_version ${LATEST_VERSION})`);
      // Every table is in it, and no FTS5 shadow table.
      expect(fresh).toMatch(/CREATE TABLE messages \(/);
      expect(fresh).not.toMatch(/_fts_(data|idx|docsize|config)/);
    } finally {
      db.close();
    }
  });
});
