import type Database from 'better-sqlite3';

// One numbered schema migration: it brings the schema from user_version N-1 to N.
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Rewrites rows after the SQL, in the same transaction (what SQL alone cannot parse). */
  convert?: (db: Database.Database) => void;
}
