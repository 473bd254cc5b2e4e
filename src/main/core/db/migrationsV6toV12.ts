// Migrations 6–12: handed-back tasks, drafts, the task ledger, reasoning, approvals, models and usage, instructions.
// Never edit a shipped migration: add a new one at the end of migrations.ts.
import type { Migration } from './migration';

export const migrationsV6toV12: Migration[] = [
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
];
