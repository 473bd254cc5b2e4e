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
  {
    version: 6,
    name: 'handed-back tasks and the user edits that win',
    sql: `
      -- Set while a task a worker left in progress waits for the main agent (why the worker
      -- ended without completing it); cleared when its status or owner changes.
      ALTER TABLE tasks ADD COLUMN handed_back TEXT CHECK (handed_back IN ('failed', 'stopped', 'unfinished'));
      -- The user's edits of a list that the model has not acknowledged yet, as JSON
      -- (src/main/core/tasks/taskMerge.ts): they win over the model's rewrites until then.
      CREATE TABLE task_user_edits (
        list_id INTEGER PRIMARY KEY REFERENCES task_lists (id) ON DELETE CASCADE,
        edits TEXT NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'unsent drafts',
    sql: `
      -- The composer's unsent text per conversation. No foreign key: a new conversation
      -- has a draft before it is stored (its first send stores it under the same id).
      CREATE TABLE drafts (
        conversation_id TEXT PRIMARY KEY,
        content TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TRIGGER drafts_forget_deleted AFTER DELETE ON conversations BEGIN
        DELETE FROM drafts WHERE conversation_id = old.id;
      END;
    `,
  },
  {
    version: 8,
    name: 'task ledger: tool calls linked to the task in progress',
    sql: `
      -- Every tool call an agent ran. conversation_id is the conversation whose tasks it
      -- served (the parent, for a worker); transcript_id is where its card is shown.
      -- task_id is the agent's task in progress when the call started, or NULL.
      CREATE TABLE tool_calls (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        transcript_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        task_id INTEGER REFERENCES tasks (id) ON DELETE SET NULL,
        agent_id TEXT NOT NULL,
        tool_call_id TEXT NOT NULL,
        message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'denied', 'cancelled')),
        started_at INTEGER NOT NULL,
        ended_at INTEGER NOT NULL,
        result TEXT NOT NULL
      );
      CREATE INDEX tool_calls_by_task ON tool_calls (task_id, id) WHERE task_id IS NOT NULL;
      CREATE INDEX tool_calls_by_message ON tool_calls (message_id) WHERE message_id IS NOT NULL;
    `,
  },
  {
    version: 9,
    name: 'reasoning with messages',
    sql: `
      -- What a reasoning model thought before its answer, and for how long (ms).
      ALTER TABLE messages ADD COLUMN reasoning TEXT;
      ALTER TABLE messages ADD COLUMN reasoning_ms INTEGER;
    `,
  },
  {
    version: 10,
    name: 'tool approvals and outputs',
    sql: `
      -- Tool calls waiting for the user's approval. A row left here by a process that
      -- ended is answered "not run" at the next start, so the model is told.
      CREATE TABLE tool_approvals (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        transcript_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        agent_id TEXT NOT NULL,
        tool_call_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        server TEXT NOT NULL,
        tool TEXT NOT NULL,
        arguments TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX tool_approvals_by_conversation ON tool_approvals (conversation_id, created_at);

      -- What an MCP call returned besides text: images and resources, for its card (and
      -- the images for models that can see them).
      CREATE TABLE tool_outputs (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        tool_call_id TEXT NOT NULL,
        images TEXT NOT NULL,
        attachments TEXT NOT NULL,
        PRIMARY KEY (conversation_id, tool_call_id)
      );
    `,
  },
  {
    version: 11,
    name: 'per-conversation models, token usage and summaries',
    sql: `
      -- The profile and model a conversation talks to; NULL: the default for new conversations.
      ALTER TABLE conversations ADD COLUMN model_profile TEXT;
      ALTER TABLE conversations ADD COLUMN model_name TEXT;
      -- Token usage the server reported for a reply, the model that wrote it, and its cost
      -- when the user entered prices.
      ALTER TABLE messages ADD COLUMN model TEXT;
      ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER;
      ALTER TABLE messages ADD COLUMN completion_tokens INTEGER;
      ALTER TABLE messages ADD COLUMN cost REAL;
      -- Set on a summary (a 'system' row): it stands in for every message up to this id
      -- when the history is sent; the originals stay.
      ALTER TABLE messages ADD COLUMN summary_through INTEGER;
    `,
  },
  {
    version: 12,
    name: 'conversation instructions',
    sql: `
      -- Each conversation's own instructions. No foreign key: a new conversation's may be
      -- set before its first send stores it (under the same id).
      CREATE TABLE conversation_instructions (
        conversation_id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TRIGGER conversation_instructions_forget_deleted AFTER DELETE ON conversations BEGIN
        DELETE FROM conversation_instructions WHERE conversation_id = old.id;
      END;
    `,
  },
  {
    version: 13,
    name: 'message versions',
    sql: `
      -- Messages form a tree: editing a message or regenerating a reply adds a sibling (a
      -- version) and keeps the old one. parent_id is the message before it on its branch
      -- (NULL for the first). No foreign key: a cascade down a 100,000-message chain would
      -- recurse once per message.
      ALTER TABLE messages ADD COLUMN parent_id INTEGER;
      -- chosen: the version picked among its siblings (exactly one per parent).
      -- shown: on the branch the conversation shows (every ancestor chosen), kept in step
      -- so the shown branch pages by one indexed keyset query.
      ALTER TABLE messages ADD COLUMN chosen INTEGER NOT NULL DEFAULT 1 CHECK (chosen IN (0, 1));
      ALTER TABLE messages ADD COLUMN shown INTEGER NOT NULL DEFAULT 1 CHECK (shown IN (0, 1));
      -- Until now every conversation was a straight line.
      UPDATE messages SET parent_id = (
        SELECT MAX(p.id) FROM messages p WHERE p.conversation_id = messages.conversation_id AND p.id < messages.id
      );
      CREATE INDEX messages_by_parent ON messages (parent_id, conversation_id);
      CREATE INDEX messages_shown ON messages (conversation_id, id) WHERE shown = 1;
    `,
  },
  {
    version: 14,
    name: 'folders',
    sql: `
      -- One level of sidebar folders. Names are unique whatever their case, so an import
      -- can find a folder again by its name.
      CREATE TABLE folders (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        collapsed INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX folders_by_name ON folders (name COLLATE NOCASE);
      -- Deleting a folder moves its conversations out of it.
      ALTER TABLE conversations ADD COLUMN folder_id TEXT REFERENCES folders (id) ON DELETE SET NULL;
      CREATE INDEX conversations_by_folder ON conversations (folder_id, pinned, updated_at DESC) WHERE parent_id IS NULL;
    `,
  },
  {
    version: 15,
    name: 'attachments',
    sql: `
      -- Files the user attached. The bytes live once per content in <dataDir>/attachments/<sha256>;
      -- a row is one name and type for them. Rows no message links to are dropped a day later.
      CREATE TABLE attachments (
        id TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL,
        name TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('image', 'text', 'pdf')),
        size INTEGER NOT NULL,
        -- A PDF's extracted text (NULL for other kinds, '' when it has none).
        text TEXT,
        created_at INTEGER NOT NULL,
        UNIQUE (sha256, name, mime_type)
      );
      CREATE TABLE message_attachments (
        message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        attachment_id TEXT NOT NULL REFERENCES attachments (id),
        PRIMARY KEY (message_id, position)
      );
      CREATE INDEX message_attachments_by_attachment ON message_attachments (attachment_id);
    `,
  },
  {
    version: 16,
    name: 'task continuity',
    sql: `
      -- Whether a conversation's agents were left mid-list (continuity/): 'running' while
      -- they run, so a row still 'running' at start-up was cut off by a quit or a crash and
      -- becomes 'interrupted'; 'stopped' after Stop or a turn that ended with tasks left.
      CREATE TABLE task_continuity (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        state TEXT NOT NULL CHECK (state IN ('running', 'stopped', 'interrupted')),
        at INTEGER NOT NULL
      );
      -- Each branch of the message tree keeps its own list (tasks/branchLists.ts). A list of a
      -- branch that is not shown is parked on the first message of that branch: closed while
      -- parked (so every "open list" query stays as it is), open again when it is shown.
      -- A parked branch that is deleted leaves its list closed, in the history.
      ALTER TABLE task_lists ADD COLUMN parked_on INTEGER REFERENCES messages (id) ON DELETE SET NULL;
      CREATE UNIQUE INDEX task_lists_parked ON task_lists (parked_on) WHERE parked_on IS NOT NULL;
      -- The open list as it stood when a user message was stored: an edit of that message
      -- starts its new branch with this list (JSON array of tasks).
      CREATE TABLE task_snapshots (
        message_id INTEGER PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        tasks TEXT NOT NULL
      );
    `,
  },
  {
    version: 17,
    name: 'task change source',
    sql: `
      -- The other agent (an MCP client's name) whose change a task shows last; NULL when
      -- the user or the conversation's own agents changed it last.
      ALTER TABLE tasks ADD COLUMN changed_by TEXT;
    `,
  },
  {
    // A tool result's outcome is recorded, not read from its text. Results from before
    // take the outcome the task ledger recorded for them, where it has one.
    version: 18,
    name: 'tool result outcomes',
    sql: `
      ALTER TABLE messages ADD COLUMN outcome TEXT
        CHECK (outcome IS NULL OR outcome IN ('ok', 'error', 'denied', 'cancelled', 'not_run'));
      UPDATE messages SET outcome = (SELECT t.outcome FROM tool_calls t WHERE t.message_id = messages.id ORDER BY t.id DESC LIMIT 1)
        WHERE role = 'tool';
    `,
  },
  {
    version: 19,
    name: 'plan review',
    sql: `
      -- "Review plans" per conversation; NULL follows the default in Settings → Agent.
      -- Conversations from before plan review keep today's behaviour.
      ALTER TABLE conversations ADD COLUMN plan_review TEXT CHECK (plan_review IN ('off', 'before_acting', 'every_plan'));
      UPDATE conversations SET plan_review = 'off';
      -- Every review of a plan: changes requested (approved_at NULL) or approved. tasks and
      -- comments are JSON (PlanTask[], PlanComments); revision counts per task list.
      CREATE TABLE plan_revisions (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        list_id INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        tasks TEXT NOT NULL,
        comments TEXT NOT NULL,
        approved_at INTEGER,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, list_id, revision)
      );
      -- The plan as the model left it at the end of its last planning turn: what the
      -- user's edits in the review card are compared with.
      CREATE TABLE plan_drafts (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        list_id INTEGER NOT NULL,
        tasks TEXT NOT NULL
      );
      -- Approved plans a turn finished: their approval does not cover work added later.
      CREATE TABLE plans_done (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        list_id INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, list_id)
      );
    `,
  },
  {
    version: 20,
    name: 'task board',
    sql: `
      -- The task board walks top-level conversations newest activity first and stops at a
      -- page, and asks whether a list has a task of a status without reading its rows.
      CREATE INDEX conversations_by_activity ON conversations (updated_at DESC, id DESC) WHERE parent_id IS NULL;
      CREATE INDEX tasks_by_list_status ON tasks (list_id, status);
    `,
  },
  {
    version: 21,
    name: 'pdf text note and summary index',
    sql: `
      -- Why a PDF has no text although it may hold some (its parse went over budget).
      ALTER TABLE attachments ADD COLUMN text_note TEXT;
      -- A request finds the newest summary without scanning the conversation.
      CREATE INDEX messages_summaries ON messages (conversation_id, id) WHERE summary_through IS NOT NULL AND shown = 1;
    `,
  },
];

export const LATEST_VERSION = migrations.at(-1)?.version ?? 0;
