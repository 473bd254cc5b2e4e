// The shapes the task store reads and writes: SQLite rows, the draft the service edits,
// and a list's identity. Types only, so the store and the row mapping can share them
// without importing each other.
import type { HandedBack, TaskStatus } from '../../../shared/tasks';
import type { Row } from '../db/tables';

/** A `tasks` row as SQLite returns it. */
export type TaskRow = Row<'tasks'>;

/** A `task_events` row as SQLite returns it. */
export type EventRow = Row<'task_events'>;

/** A task as the service edits it: `id` is the seq; `rowId` is null until inserted. */
export interface DraftTask {
  rowId: number | null;
  id: number;
  title: string;
  description: string;
  activeForm: string;
  status: TaskStatus;
  owner: string;
  blockedBy: number[];
  lastMessageId: number | null;
  /** Set on an in-progress task its worker left unfinished; cleared by any status or owner change. */
  handedBack?: HandedBack | null;
  /** Set by the service for each write: the MCP client making it, or null. */
  changedBy?: string | null;
}

export interface ListInfo {
  id: number;
  conversationId: string;
  createdAt: number;
  closedAt: number | null;
}

/** Rows of one list, and per task row its blockers' row ids. */
export interface ListRows {
  rows: TaskRow[];
  blockers: Map<number, number[]>;
}
