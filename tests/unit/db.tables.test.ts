// db/tables.ts lists every table's columns as the migrations leave them: names in order,
// SQL types and whether NULL is allowed, compared with a freshly migrated database.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { tables } from '../../src/main/core/db/tables';
import { tempDirPerTest } from '../support/tempDir';

const dir = tempDirPerTest({ beforeEach, afterEach });

interface TableInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

describe('the table definitions', () => {
  it('match a freshly migrated database, every table and every column', () => {
    const { db } = openDatabase(dir.path);
    try {
      const actual = db
        .prepare<[], { name: string; type: string; schema: string }>('PRAGMA table_list')
        .all()
        .filter((t) => t.type === 'table' && t.schema === 'main' && !t.name.startsWith('sqlite_'))
        .map((t) => t.name)
        .sort();
      expect(Object.keys(tables).sort(), 'a table is missing from (or extra in) db/tables.ts').toEqual(actual);
      for (const name of actual) {
        const columns = db.prepare<[], TableInfo>(`PRAGMA table_info(${JSON.stringify(name)})`).all();
        const fromDb = columns.map((c) => `${c.name} ${c.type.toUpperCase()}${c.notnull || c.pk ? '' : ' NULL'}`);
        const defined = Object.entries(tables[name as keyof typeof tables]).map(
          ([column, def]) => `${column} ${def.type}${def.nullable ? ' NULL' : ''}`,
        );
        expect(defined, `db/tables.ts: ${name}`).toEqual(fromDb);
      }
    } finally {
      db.close();
    }
  });
});
