// Writes docs/schema.sql: the schema a fresh database has after every migration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/main/core/db/openDatabase';
import { dumpSchema } from '../src/main/core/db/schemaDump';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-schema-'));
try {
  const { db } = openDatabase(dir);
  const text = dumpSchema(db);
  db.close();
  const target = path.resolve(import.meta.dirname, '../docs/schema.sql');
  fs.writeFileSync(target, text);
  console.log(`Wrote ${path.relative(process.cwd(), target)}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
