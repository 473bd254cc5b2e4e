// Numbered schema migrations. Migration N brings the schema from user_version N-1 to N.
// Never edit a shipped migration: add a new one, so every earlier version can upgrade.
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'conversations and messages',
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
        title_source TEXT NOT NULL DEFAULT 'auto' CHECK (title_source IN ('user', 'auto'))
      );
      CREATE INDEX conversations_order ON conversations (pinned DESC, updated_at DESC);

      CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
        content TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        tool_calls TEXT,
        tool_call_id TEXT,
        tool_name TEXT,
        status TEXT NOT NULL DEFAULT 'complete'
          CHECK (status IN ('complete', 'streaming', 'interrupted', 'stopped', 'error')),
        error TEXT,
        origin TEXT NOT NULL DEFAULT 'user' CHECK (origin IN ('user', 'auto', 'worker', 'system'))
      );
      CREATE INDEX messages_by_conversation ON messages (conversation_id, id);
    `,
  },
];

export const LATEST_VERSION = migrations.at(-1)?.version ?? 0;
