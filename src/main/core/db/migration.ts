// One numbered schema migration: it brings the schema from user_version N-1 to N.
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
