// What the task-share tools read: the open task lists across conversations (filtered like
// the board) and one conversation's list with owners, blockers and ledger counts. Plain
// SQL over the database, so the same reader serves the running app and the read-only
// stdio fallback (which has no core).
import type { Task, TaskList, TaskStatus } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import { createLedgerStore } from '../ledger/ledgerStore';
import { createTaskStore } from '../tasks/taskStore';
import { progressText } from '../tasks/taskRules';
import { filterWords, indexQuery } from './filterWords';

export const SHARE_STATUSES = ['pending', 'in_progress', 'blocked', 'completed', 'cancelled'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

export interface ListFilter {
  /** Lists with at least one task of this status ("blocked": pending with an open blocker). */
  status?: ShareStatus;
  /** Folder name, any case; "" for conversations outside every folder. */
  folder?: string;
  /** Words that must appear in the conversation's title or one of its task titles (any case). */
  text?: string;
  /** Lists whose tasks are all finished too (off: only lists with work left). */
  includeCompleted?: boolean;
  limit?: number;
}

export interface ListSummary {
  conversationId: string;
  title: string;
  folder: string | null;
  done: number;
  total: number;
  progress: string;
  inProgress: { id: number; title: string } | null;
  updatedAt: string;
}

interface SummaryRow {
  conversation_id: string;
  title: string;
  folder: string | null;
  done: number;
  total: number;
  updated_at: number;
  current_seq: number | null;
  current_title: string | null;
}

// Read from the dependencies, once per call (not correlated): few tasks have blockers, and
// asking every list in turn walked all of them when none was blocked.
const BLOCKED = `l.id IN (SELECT b.list_id FROM task_deps d JOIN tasks b ON b.id = d.task_id JOIN tasks x ON x.id = d.blocked_by_id
  WHERE b.status = 'pending' AND x.status IN ('pending', 'in_progress'))`;

/** At most this many lists holding a text's long words are read and sorted instead of walked. */
export const FEW_CANDIDATES = 1000;

export function createShareReader(db: Db) {
  const store = createTaskStore(db);
  const ledger = createLedgerStore(db);
  const conversation = db.prepare<[string], { id: string; title: string; folder: string | null }>(
    'SELECT c.id, c.title, f.name AS folder FROM conversations c LEFT JOIN folders f ON f.id = c.folder_id WHERE c.id = ?',
  );
  const candidates = db.prepare<[string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM (SELECT rowid FROM task_lists_fts WHERE task_lists_fts MATCH ? LIMIT ?)',
  );

  /** The SQL a filter is answered with (throws FilterTooLong for too long a text). */
  function summaryQuery(filter: ListFilter): { sql: string; params: Array<string | number> } {
    const where = ['l.closed_at IS NULL'];
    const params: Array<string | number> = [];
    if (filter.status === 'blocked') where.push(BLOCKED);
    else if (filter.status) {
      where.push('EXISTS (SELECT 1 FROM tasks s WHERE s.list_id = l.id AND s.status = ?)');
      params.push(filter.status);
    }
    if (filter.folder !== undefined) {
      if (filter.folder.trim() === '') where.push('c.folder_id IS NULL');
      else {
        where.push('f.name = ? COLLATE NOCASE');
        params.push(filter.folder.trim());
      }
    }
    const words = filterWords(filter.text ?? '');
    const match = indexQuery(words);
    // A selective text (few lists hold its long words) is looked up in the trigram index and
    // only those lists are read; a common one is found within the first lists of the walk
    // below, sooner than the index could list all of its lists. instr stays the exact check
    // either way (a list holds every word as a substring of its folded text).
    const lookUp = match !== null && (candidates.get(match, FEW_CANDIDATES + 1)?.n ?? 0) <= FEW_CANDIDATES;
    if (lookUp) {
      where.push('l.id IN (SELECT rowid FROM task_lists_fts WHERE task_lists_fts MATCH ?)');
      params.push(match);
    }
    for (const word of words) {
      where.push('instr(l.search_text, ?) > 0');
      params.push(word);
    }
    // Lists of unfinished work only, unless asked (a list with no task is never one).
    where.push(
      filter.includeCompleted
        ? 'EXISTS (SELECT 1 FROM tasks a WHERE a.list_id = l.id)'
        : "EXISTS (SELECT 1 FROM tasks a WHERE a.list_id = l.id AND a.status IN ('pending', 'in_progress'))",
    );
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), 500);
    // Without a look-up, the board's walk: top-level conversations by activity, stopping once
    // the page is full, so a call reads about as many lists as it returns (the counts are for
    // those only). With one, the few lists it found, sorted.
    const from = lookUp
      ? 'task_lists l CROSS JOIN conversations c ON c.id = l.conversation_id'
      : 'conversations c INDEXED BY conversations_by_activity CROSS JOIN task_lists l ON l.conversation_id = c.id';
    const sql = `SELECT c.id AS conversation_id, c.title, f.name AS folder, c.updated_at,
           (SELECT COUNT(*) FROM tasks t WHERE t.list_id = l.id AND t.status = 'completed') AS done,
           (SELECT COUNT(*) FROM tasks t WHERE t.list_id = l.id AND t.status <> 'cancelled') AS total,
           (SELECT p.seq FROM tasks p WHERE p.list_id = l.id AND p.status = 'in_progress' ORDER BY p.position LIMIT 1) AS current_seq,
           (SELECT p.title FROM tasks p WHERE p.list_id = l.id AND p.status = 'in_progress' ORDER BY p.position LIMIT 1) AS current_title
         FROM ${from}
         LEFT JOIN folders f ON f.id = c.folder_id
         WHERE c.parent_id IS NULL AND ${where.join(' AND ')}
         ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit}`;
    return { sql, params };
  }

  function summaries(filter: ListFilter): ListSummary[] {
    const { sql, params } = summaryQuery(filter);
    const rows = db.prepare<Array<string | number>, SummaryRow>(sql).all(...params);
    return rows.map((row) => ({
      conversationId: row.conversation_id,
      title: row.title,
      folder: row.folder,
      done: row.done,
      total: row.total,
      progress: `${row.done}/${row.total}`,
      inProgress: row.current_seq === null ? null : { id: row.current_seq, title: row.current_title ?? '' },
      updatedAt: new Date(row.updated_at).toISOString(),
    }));
  }

  /** The conversation, or null when there is none with that id. */
  function conversationOf(conversationId: string) {
    return conversation.get(conversationId) ?? null;
  }

  function detail(conversationId: string, list: TaskList | null) {
    const info = conversationOf(conversationId);
    if (!info) return null;
    const counts = new Map(ledger.openCounts(conversationId).counts.map((c) => [c.taskId, c.count]));
    return {
      conversationId,
      title: info.title,
      folder: info.folder,
      resource: taskResourceUri(conversationId),
      progress: list ? progressText(list.tasks) : 'no open task list',
      tasks: (list?.tasks ?? []).map((task) => shareTask(task, counts.get(task.id) ?? 0)),
    };
  }

  return {
    summaries,
    summaryQuery,
    conversationOf,
    /** One conversation's open list as the tools show it; null for an unknown conversation. */
    list(conversationId: string) {
      return detail(conversationId, store.openTaskList(conversationId));
    },
    /** The same view of a list the caller already has (after a write). */
    detail,
  };
}

function shareTask(task: Task, toolCalls: number) {
  const blocked = task.status === 'pending' && task.openBlockers.length > 0;
  const status: TaskStatus | 'blocked' = blocked ? 'blocked' : task.status;
  return {
    id: task.id,
    title: task.title,
    status,
    ...(task.description ? { description: task.description } : {}),
    ...(task.status === 'in_progress' && task.activeForm ? { activeForm: task.activeForm } : {}),
    owner: task.owner === 'main' ? 'main agent' : task.owner,
    blockedBy: task.blockedBy,
    toolCalls,
  };
}

export const TASK_RESOURCE_PREFIX = 'stepwise://tasks/';
export const taskResourceUri = (conversationId: string) => `${TASK_RESOURCE_PREFIX}${conversationId}`;

export type ShareReader = ReturnType<typeof createShareReader>;
export type ShareList = NonNullable<ReturnType<ShareReader['list']>>;
