// Migration 23: routines, their runs and the Activity inbox (docs/routines.md). In a file
// of its own so the list in migrations.ts grows by one line.
import type { Migration } from './migration';

export const routinesMigration: Migration = {
  version: 23,
  name: 'routines and activity',
  sql: `
    CREATE TABLE routines (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      instructions TEXT NOT NULL,
      -- The form's schedule as JSON: {kind, minutes, time, day, cron}.
      schedule TEXT NOT NULL,
      model_profile TEXT,
      model_name TEXT,
      folder_id TEXT REFERENCES folders (id) ON DELETE SET NULL,
      plan_review TEXT NOT NULL,
      autopilot INTEGER NOT NULL CHECK (autopilot IN (0, 1)),
      -- The acting MCP tools its runs may call without asking: [{server, tool}].
      tools TEXT NOT NULL,
      missed TEXT NOT NULL CHECK (missed IN ('run_once', 'skip')),
      paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
      -- "Every N minutes" counts from here.
      anchor_at INTEGER NOT NULL,
      next_run_at INTEGER,
      -- Stamped when a run ends, never when it starts.
      last_run_at INTEGER,
      last_outcome TEXT,
      last_detail TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    -- Every run, and every run that did not happen (missed, skipped), with its due time.
    CREATE TABLE routine_runs (
      id INTEGER PRIMARY KEY,
      routine_id TEXT NOT NULL REFERENCES routines (id) ON DELETE CASCADE,
      conversation_id TEXT REFERENCES conversations (id) ON DELETE SET NULL,
      status TEXT NOT NULL,
      due_at INTEGER,
      started_at INTEGER,
      ended_at INTEGER,
      detail TEXT
    );
    CREATE INDEX routine_runs_by_routine ON routine_runs (routine_id, id);
    CREATE INDEX routine_runs_by_conversation ON routine_runs (conversation_id) WHERE conversation_id IS NOT NULL;
    CREATE TABLE activity_events (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
      routine_id TEXT REFERENCES routines (id) ON DELETE SET NULL,
      title TEXT NOT NULL,
      detail TEXT NOT NULL,
      at INTEGER NOT NULL,
      read INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1))
    );
    CREATE INDEX activity_events_unread ON activity_events (id) WHERE read = 0;
    -- Settings → Notifications and Settings → Routines.
    CREATE TABLE activity_settings (
      key TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    );
  `,
};
