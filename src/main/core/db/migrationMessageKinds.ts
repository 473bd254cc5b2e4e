// Migration 24: every message gets a kind, and Stepwise's own messages, which were marked
// by the start of their text, become plumbing kinds with a typed payload
// (shared/messageKinds.ts). The model reads the same text as before (legacyMessages.ts).
import type { Migration } from './migration';
import { plumbingFromLegacy } from './legacyMessages';
import { plumbingStoresText } from '../../../shared/messageKinds';

export const messageKindsMigration: Migration = {
  version: 24,
  name: 'message kinds',
  sql: `
    -- user, assistant, tool, note (a system note for the user), summary, or a plumbing
    -- kind whose JSON payload is in payload.
    ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'user';
    ALTER TABLE messages ADD COLUMN payload TEXT;
    UPDATE messages SET kind = CASE
      WHEN role = 'assistant' THEN 'assistant'
      WHEN role = 'tool' THEN 'tool'
      WHEN role = 'system' AND summary_through IS NOT NULL THEN 'summary'
      WHEN role = 'system' THEN 'note'
      ELSE 'user' END;
    -- The task ledger counts actions: the list's own updates, thinking and the clock are
    -- no task's entries (shared/ledger.ts, BOOKKEEPING_TOOLS).
    -- Continuity: a turn that simply ended with tasks open is "paused", not "stopped".
    CREATE TABLE task_continuity_v23 (
      conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
      state TEXT NOT NULL CHECK (state IN ('running', 'stopped', 'paused', 'interrupted')),
      at INTEGER NOT NULL
    );
    INSERT INTO task_continuity_v23 (conversation_id, state, at) SELECT conversation_id, state, at FROM task_continuity;
    DROP TABLE task_continuity;
    ALTER TABLE task_continuity_v23 RENAME TO task_continuity;
    UPDATE tool_calls SET task_id = NULL WHERE name IN
      ('manage_todo_list', 'task_create', 'task_update', 'task_get', 'task_list', 'task_delete', 'think', 'get_current_time');
  `,
  convert(db) {
    const candidates = db
      .prepare<[], { id: number; role: string; origin: string; content: string }>(
        `SELECT id, role, origin, content FROM messages
         WHERE (role = 'user' AND origin <> 'user') OR (role = 'user' AND content LIKE 'PLAN%') OR kind = 'note'`,
      )
      .all();
    const write = db.prepare('UPDATE messages SET kind = ?, payload = ?, content = ? WHERE id = ?');
    for (const row of candidates) {
      const plumbing = plumbingFromLegacy(row);
      if (!plumbing) continue;
      write.run(plumbing.kind, JSON.stringify(plumbing), plumbingStoresText(plumbing) ? row.content : '', row.id);
    }
  },
};
