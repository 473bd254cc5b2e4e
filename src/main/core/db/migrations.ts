// Numbered schema migrations. Migration N brings the schema from user_version N-1 to N.
// Never change what a shipped migration does: add a new one, so every earlier version can
// upgrade. (Making one faster while it writes the same rows is allowed.)
import type { Migration } from './migration';
import { migrationsV1toV5 } from './migrationsV1toV5';
import { migrationsV6toV12 } from './migrationsV6toV12';
import { routinesMigration } from './migrationRoutines';
import { messageKindsMigration } from './migrationMessageKinds';
import { searchTextOf } from './foldedText';
import { LATEST_VERSION } from './databaseFile';

export type { Migration };

/** Every migration in order; the oldest live in files of their own to keep each file short. */
export const migrations: Migration[] = [
  ...migrationsV1toV5,
  ...migrationsV6toV12,
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
  {
    version: 22,
    name: 'task history written in four pages',
    sql: `
      -- Every task change appends a history row, so each page it touches is a WAL frame
      -- written on every commit. Two of them go:
      -- * AUTOINCREMENT's sqlite_sequence row. Ids still only grow (the newest row's id + 1):
      --   events are deleted only with their conversation, so an id is handed out again
      --   only after every event above it is gone, and with it every "told the model up to
      --   event N" mark that could name it (task_notice_marks are per conversation).
      -- * The index on task_id, which only the foreign key's ON DELETE SET NULL needed. A
      --   trigger does what it did, through the list's index: a task deleted on its own
      --   leaves its history naming no task. A task deleted with its list (its list row is
      --   already gone then) skips it: the list's events go too.
      CREATE TABLE task_events_v22 (
        id INTEGER PRIMARY KEY,
        list_id INTEGER REFERENCES task_lists (id) ON DELETE CASCADE,
        task_id INTEGER,
        at INTEGER NOT NULL,
        actor TEXT NOT NULL,
        kind TEXT NOT NULL,
        before TEXT,
        after TEXT
      );
      INSERT INTO task_events_v22 (id, list_id, task_id, at, actor, kind, before, after)
        SELECT id, list_id, task_id, at, actor, kind, before, after FROM task_events;
      DROP TABLE task_events;
      ALTER TABLE task_events_v22 RENAME TO task_events;
      DELETE FROM sqlite_sequence WHERE name = 'task_events';
      CREATE INDEX task_events_by_list ON task_events (list_id, id);
      -- An event written with only its task still belongs to (and is deleted with) the list.
      CREATE TRIGGER task_events_fill_list AFTER INSERT ON task_events
        WHEN new.list_id IS NULL AND new.task_id IS NOT NULL BEGIN
        UPDATE task_events SET list_id = (SELECT list_id FROM tasks WHERE id = new.task_id) WHERE id = new.id;
      END;
      CREATE TRIGGER tasks_forget_events AFTER DELETE ON tasks
        WHEN EXISTS (SELECT 1 FROM task_lists WHERE id = old.list_id) BEGIN
        UPDATE task_events SET task_id = NULL WHERE list_id = old.list_id AND task_id = old.id;
      END;
    `,
  },
  routinesMigration,
  messageKindsMigration,
  {
    version: 25,
    name: 'calls held for plan review',
    sql: `
      -- A call plan review held (docs/task-lists.md, "Plan review"): it changes things, the
      -- plan was not approved, so it was not made. Both outcome columns learn 'held'; a
      -- CHECK constraint cannot be altered, so each column is written again.
      -- The new column is NULL in every row, which its CHECK allows, so SQLite's scan of the
      -- whole table to verify that is skipped (docs/performance.md, issue 39 round 11). The
      -- same rows and schema either way; only the speed was changed after this shipped.
      PRAGMA ignore_check_constraints = ON;
      ALTER TABLE messages ADD COLUMN outcome_v25 TEXT
        CHECK (outcome_v25 IS NULL OR outcome_v25 IN ('ok', 'error', 'denied', 'cancelled', 'not_run', 'held'));
      PRAGMA ignore_check_constraints = OFF;
      UPDATE messages SET outcome_v25 = outcome WHERE outcome IS NOT NULL;
      ALTER TABLE messages DROP COLUMN outcome;
      ALTER TABLE messages RENAME COLUMN outcome_v25 TO outcome;
      CREATE TABLE tool_calls_v25 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        transcript_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        task_id INTEGER REFERENCES tasks (id) ON DELETE SET NULL,
        agent_id TEXT NOT NULL,
        tool_call_id TEXT NOT NULL,
        message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'denied', 'cancelled', 'held')),
        started_at INTEGER NOT NULL,
        ended_at INTEGER NOT NULL,
        result TEXT NOT NULL
      );
      INSERT INTO tool_calls_v25 SELECT id, conversation_id, transcript_id, task_id, agent_id, tool_call_id,
        message_id, name, arguments, outcome, started_at, ended_at, result FROM tool_calls;
      DROP TABLE tool_calls;
      ALTER TABLE tool_calls_v25 RENAME TO tool_calls;
      CREATE INDEX tool_calls_by_task ON tool_calls (task_id, id) WHERE task_id IS NOT NULL;
      CREATE INDEX tool_calls_by_message ON tool_calls (message_id) WHERE message_id IS NOT NULL;
      -- The review card lists the calls held since the conversation's last approval.
      CREATE INDEX tool_calls_held ON tool_calls (conversation_id, id) WHERE outcome = 'held';
      `,
  },
  {
    version: 26,
    name: 'start-up lookups',
    sql: `
      -- Start-up looks for regenerates cut off before their new version was stored (a parent
      -- whose children are all unchosen). Unchosen messages are the old versions only, so
      -- the check reads them instead of every conversation's shown branch.
      CREATE INDEX messages_unchosen ON messages (parent_id, conversation_id) WHERE chosen = 0;
      -- Start-up marks the conversations cut off while they ran from the lists left running
      -- and the workers left live, not from every conversation or every worker ever.
      CREATE INDEX task_continuity_running ON task_continuity (conversation_id) WHERE state = 'running';
      CREATE INDEX workers_live ON workers (conversation_id) WHERE status IN ('queued', 'running');
    `,
  },
  {
    version: 27,
    name: 'message token counts',
    sql: `
      -- A message's content in tokens (o200k_base), counted once and kept, so the first
      -- request after a start does not count the history again. NULL until counted.
      ALTER TABLE messages ADD COLUMN tokens INTEGER;
    `,
  },
  {
    version: 28,
    name: 'task list search text',
    sql: `
      -- A list's conversation title and task titles, case-folded as the board folds them
      -- (Unicode), one per line: a shared list_task_lists text filter is one pass over one
      -- column. Kept up to date by TEMP triggers (db/foldedText.ts).
      ALTER TABLE task_lists ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
      UPDATE task_lists SET search_text = ${searchTextOf('task_lists')};
    `,
  },
  {
    version: 29,
    name: 'message search prefix index',
    sql: `
      -- Search as you type ends its query with a prefix ("the"*). Without a prefix index
      -- FTS5 merges the doclists of every term with that start, whole, before the first row:
      -- for a common word that was most of a search's time (issue 39). Two- and three-letter
      -- starts are indexed; longer ones match fewer terms. Same rows as before: shown roles,
      -- not while streaming (the triggers of migration 5 keep it so).
      DROP TABLE messages_fts;
      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        content,
        content = 'messages',
        content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '2 3'
      );
      -- Built with 64 MB of pending terms (FTS5 writes a segment whenever 1 MB is pending,
      -- then merges them): fewer segments to merge, a third less time on a large database.
      -- Then back to the default. The same rows either way; only the speed was changed
      -- after this migration shipped (docs/performance.md, issue 39 round 8).
      INSERT INTO messages_fts (messages_fts, rank) VALUES ('hashsize', 67108864);
      INSERT INTO messages_fts (rowid, content)
        SELECT id, content FROM messages WHERE role IN ('user', 'assistant') AND status <> 'streaming';
      INSERT INTO messages_fts (messages_fts, rank) VALUES ('hashsize', 1048576);
    `,
  },
  {
    version: 30,
    name: 'folder roots',
    sql: `
      -- "Folders the tools may use" of a sidebar folder: absolute paths sent to MCP servers as
      -- roots (roots/list) for the conversations in it, after the global ones (docs/tools.md).
      CREATE TABLE folder_roots (
        folder_id TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        path TEXT NOT NULL,
        PRIMARY KEY (folder_id, position)
      );
    `,
  },
  {
    version: 31,
    name: 'task list search index',
    sql: `
      -- The trigrams of each open list's search_text: a list_task_lists text filter looks its
      -- words of three or more characters up here instead of reading every list's text
      -- (issue 33). Contentless (the text stays in task_lists) and deleted by rowid, so the
      -- triggers need no old text and do not depend on firing before or after the TEMP
      -- triggers that refresh search_text (db/foldedText.ts). Cascaded deletes fire them too.
      CREATE VIRTUAL TABLE task_lists_fts USING fts5 (
        search_text,
        content = '',
        contentless_delete = 1,
        tokenize = 'trigram'
      );
      INSERT INTO task_lists_fts (rowid, search_text) SELECT id, search_text FROM task_lists WHERE closed_at IS NULL;
      CREATE TRIGGER task_lists_fts_insert AFTER INSERT ON task_lists BEGIN
        INSERT OR REPLACE INTO task_lists_fts (rowid, search_text)
          SELECT id, search_text FROM task_lists WHERE id = new.id AND closed_at IS NULL;
      END;
      CREATE TRIGGER task_lists_fts_update AFTER UPDATE OF search_text, closed_at ON task_lists
        WHEN old.search_text IS NOT new.search_text OR (old.closed_at IS NULL) <> (new.closed_at IS NULL) BEGIN
        DELETE FROM task_lists_fts WHERE rowid = old.id;
        INSERT INTO task_lists_fts (rowid, search_text) SELECT new.id, new.search_text WHERE new.closed_at IS NULL;
      END;
      CREATE TRIGGER task_lists_fts_delete AFTER DELETE ON task_lists BEGIN
        DELETE FROM task_lists_fts WHERE rowid = old.id;
      END;
    `,
  },
];

// databaseFile.ts names the version for code that must not load the migrations to know it.
if (migrations.at(-1)?.version !== LATEST_VERSION)
  throw new Error(
    `databaseFile.ts says version ${LATEST_VERSION}; the last migration is ${migrations.at(-1)?.version}.`,
  );
