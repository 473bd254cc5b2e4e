// Migrations 1–5: conversations, messages and their search, task lists, workers and Autopilot.
// Never edit a shipped migration: add a new one at the end of migrations.ts.
import type { Migration } from './migration';

export const migrationsV1toV5: Migration[] = [
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
  {
    version: 2,
    name: 'full-text search of message content',
    sql: `
      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        content,
        content = 'messages',
        content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO messages_fts (rowid, content) SELECT id, content FROM messages WHERE role IN ('user', 'assistant');
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.role IN ('user', 'assistant') BEGIN
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.role IN ('user', 'assistant') BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages WHEN new.role IN ('user', 'assistant') BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
      END;
    `,
  },
  {
    version: 3,
    name: 'task lists, tasks, dependencies and task events',
    sql: `
      CREATE TABLE task_lists (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        closed_at INTEGER
      );
      -- At most one open list per conversation.
      CREATE UNIQUE INDEX task_lists_one_open ON task_lists (conversation_id) WHERE closed_at IS NULL;
      CREATE INDEX task_lists_by_conversation ON task_lists (conversation_id, id);

      CREATE TABLE tasks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        list_id INTEGER NOT NULL REFERENCES task_lists (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        active_form TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_progress', 'completed', 'cancelled')),
        owner TEXT NOT NULL DEFAULT 'main',
        position INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        completed_at INTEGER,
        last_message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        UNIQUE (list_id, seq)
      );
      CREATE INDEX tasks_by_list ON tasks (list_id, position);

      CREATE TABLE task_deps (
        task_id INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        blocked_by_id INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        PRIMARY KEY (task_id, blocked_by_id),
        CHECK (task_id <> blocked_by_id)
      );
      CREATE INDEX task_deps_by_blocker ON task_deps (blocked_by_id);

      -- History outlives the task it describes (task_id is cleared when a task is
      -- deleted); list-level events (closed, reordered) have no task at all.
      CREATE TABLE task_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        list_id INTEGER REFERENCES task_lists (id) ON DELETE CASCADE,
        task_id INTEGER REFERENCES tasks (id) ON DELETE SET NULL,
        at INTEGER NOT NULL,
        actor TEXT NOT NULL,
        kind TEXT NOT NULL,
        before TEXT,
        after TEXT
      );
      CREATE INDEX task_events_by_task ON task_events (task_id, id);
      CREATE INDEX task_events_by_list ON task_events (list_id, id);
      -- An event written with only its task still belongs to (and is deleted with) the list.
      CREATE TRIGGER task_events_fill_list AFTER INSERT ON task_events
        WHEN new.list_id IS NULL AND new.task_id IS NOT NULL BEGIN
        UPDATE task_events SET list_id = (SELECT list_id FROM tasks WHERE id = new.task_id) WHERE id = new.id;
      END;

      -- The last task event the model has been told about (the "what the user changed" line).
      CREATE TABLE task_notice_marks (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        event_id INTEGER NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'workers and autopilot',
    sql: `
      -- A worker's transcript is a child conversation: the same message store, hidden
      -- from the sidebar, deleted with its parent.
      ALTER TABLE conversations ADD COLUMN parent_id TEXT REFERENCES conversations (id) ON DELETE CASCADE;
      -- NULL: follow the "Autopilot on for new conversations" setting.
      ALTER TABLE conversations ADD COLUMN autopilot INTEGER CHECK (autopilot IN (0, 1));
      CREATE INDEX conversations_by_parent ON conversations (parent_id);
      CREATE INDEX conversations_top_order ON conversations (pinned DESC, updated_at DESC) WHERE parent_id IS NULL;

      CREATE TABLE workers (
        id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        owner TEXT NOT NULL,
        task_seq INTEGER,
        description TEXT NOT NULL,
        expected_output TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'error', 'stopped')),
        result TEXT,
        created_at INTEGER NOT NULL,
        finished_at INTEGER,
        UNIQUE (conversation_id, number)
      );
    `,
  },
  {
    version: 5,
    name: 'title search, no index churn while a reply streams, open replies found by index',
    sql: `
      -- Titles get an index too. Trigrams keep the substring search users had ("50%",
      -- "e_c" find what they say); the id column maps back (a rowid of a table with a text
      -- key may change on VACUUM, so it is not used).
      CREATE VIRTUAL TABLE conversations_fts USING fts5 (
        title,
        id UNINDEXED,
        tokenize = 'trigram remove_diacritics 1'
      );
      INSERT INTO conversations_fts (title, id) SELECT title, id FROM conversations;
      CREATE TRIGGER conversations_fts_insert AFTER INSERT ON conversations BEGIN
        INSERT INTO conversations_fts (title, id) VALUES (new.title, new.id);
      END;
      CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN
        DELETE FROM conversations_fts WHERE id = old.id;
      END;
      CREATE TRIGGER conversations_fts_update AFTER UPDATE OF title ON conversations BEGIN
        UPDATE conversations_fts SET title = new.title WHERE id = old.id;
      END;

      -- A streaming reply is saved every second; indexing it each time re-tokenized the
      -- whole text. It is indexed once it stops streaming. Rows streaming now leave the index
      -- first (the old triggers kept them in step), so nothing is counted twice.
      INSERT INTO messages_fts (messages_fts, rowid, content)
        SELECT 'delete', id, content FROM messages WHERE status = 'streaming' AND role IN ('user', 'assistant');
      DROP TRIGGER messages_fts_insert;
      DROP TRIGGER messages_fts_delete;
      DROP TRIGGER messages_fts_update;
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
        WHEN new.role IN ('user', 'assistant') AND new.status <> 'streaming' BEGIN
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
        WHEN old.role IN ('user', 'assistant') AND old.status <> 'streaming' BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      -- One trigger, so the old text always leaves the index before the new text enters.
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, status ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) SELECT 'delete', old.id, old.content
          WHERE old.role IN ('user', 'assistant') AND old.status <> 'streaming';
        INSERT INTO messages_fts (rowid, content) SELECT new.id, new.content
          WHERE new.role IN ('user', 'assistant') AND new.status <> 'streaming';
      END;

      CREATE INDEX messages_open_replies ON messages (id) WHERE status = 'streaming';
    `,
  },
];
