// The task board's reads: every open task list across conversations, filtered, newest
// activity first (the conversation's, as the sidebar orders), one page at a time. The
// matching rules are shared/boardView.ts; the SQL here says the same thing so that paging
// and counting happen in SQLite, and tests/unit/board.query.test.ts holds the two side by
// side on random lists.
import { DisposableStore, type Disposable } from '../../../shared/event';
import type { BoardGroup } from '../../../shared/boardContract';
import type { BoardFilterShape as BoardFilter } from '../../../shared/boardView';
import { foldText, listMatches } from '../../../shared/boardView';
import type { Db } from '../db/openDatabase';
import { taskListFrom } from '../tasks/taskRows';
import type { ListRows, TaskRow } from '../tasks/taskTypes';

const CONTAINS = 'stepwise_board_contains';

interface GroupRow {
  list_id: number;
  conversation_id: string;
  created_at: number;
  title: string;
  folder_id: string | null;
  folder_name: string | null;
  activity_at: number;
}

interface Params {
  text: string;
  folder: string | null;
  show_completed: number;
  /** 1 when every list passing the list-level terms matches: no status and no text. */
  no_task_filter: number;
  in_progress: number;
  pending: number;
  blocked: number;
  completed: number;
  cancelled: number;
}

// A pending task is blocked while one of its blockers is unfinished (taskRules' isOpen);
// the blocker lookup runs only when "pending" and "blocked" are chosen differently.
const TASK_MATCHES = `EXISTS (
  SELECT 1 FROM tasks t WHERE t.list_id = l.id
    AND ((@in_progress AND t.status = 'in_progress') OR (@completed AND t.status = 'completed')
      OR (@cancelled AND t.status = 'cancelled')
      OR (t.status = 'pending' AND CASE
        WHEN @pending = @blocked THEN @pending
        WHEN EXISTS (SELECT 1 FROM task_deps d JOIN tasks b ON b.id = d.blocked_by_id
                     WHERE d.task_id = t.id AND b.status IN ('pending', 'in_progress')) THEN @blocked
        ELSE @pending END))
    AND (@text = '' OR ${CONTAINS}(t.title, @text)))`;

// List-level terms first: open list of a top-level conversation, in the folder, with an
// unfinished task (any task with "Show completed lists"), then the tasks' terms.
const WHERE = `
  c.parent_id IS NULL AND (@folder IS NULL OR c.folder_id = @folder)
  AND (CASE WHEN @show_completed THEN EXISTS (SELECT 1 FROM tasks t WHERE t.list_id = l.id)
       ELSE EXISTS (SELECT 1 FROM tasks t WHERE t.list_id = l.id AND t.status IN ('pending', 'in_progress')) END)
  AND (@no_task_filter OR CASE
    -- A matching conversation title shows every task of a chosen status.
    WHEN @text <> '' AND ${CONTAINS}(c.title, @text) THEN ${TASK_MATCHES.replace("@text = ''", '1')}
    ELSE ${TASK_MATCHES} END)`;

// Walks conversations by activity (the sidebar's notion of it) and stops once the page is
// full: the first page of 10,000 lists reads about as many lists as the page holds.
const PAGE = `
  SELECT l.id AS list_id, l.conversation_id, l.created_at, c.title, c.folder_id, f.name AS folder_name, c.updated_at AS activity_at
  FROM conversations c INDEXED BY conversations_by_activity
  CROSS JOIN task_lists l ON l.conversation_id = c.id AND l.closed_at IS NULL
  LEFT JOIN folders f ON f.id = c.folder_id
  WHERE ${WHERE}
  ORDER BY c.updated_at DESC, c.id DESC LIMIT @limit OFFSET @offset`;

// The same walk resumed after a group already read (a streamed export): each page costs
// what it holds, where OFFSET would walk every list before it again.
const PAGE_AFTER = `
  SELECT l.id AS list_id, l.conversation_id, l.created_at, c.title, c.folder_id, f.name AS folder_name, c.updated_at AS activity_at
  FROM conversations c INDEXED BY conversations_by_activity
  CROSS JOIN task_lists l ON l.conversation_id = c.id AND l.closed_at IS NULL
  LEFT JOIN folders f ON f.id = c.folder_id
  WHERE (c.updated_at < @after_at OR (c.updated_at = @after_at AND c.id < @after_id)) AND ${WHERE}
  ORDER BY c.updated_at DESC, c.id DESC LIMIT @limit`;

// The same walk's keys alone: a count taken a slice at a time (a streamed export's header).
const KEYS_AFTER = `
  SELECT c.updated_at AS activity_at, c.id AS conversation_id
  FROM conversations c INDEXED BY conversations_by_activity
  CROSS JOIN task_lists l ON l.conversation_id = c.id AND l.closed_at IS NULL
  WHERE (c.updated_at < @after_at OR (c.updated_at = @after_at AND c.id < @after_id)) AND ${WHERE}
  ORDER BY c.updated_at DESC, c.id DESC LIMIT @limit`;

const COUNT = `
  SELECT COUNT(*) AS total FROM task_lists l JOIN conversations c ON c.id = l.conversation_id
  WHERE l.closed_at IS NULL AND ${WHERE}`;

const registered = new WeakSet<Db>();

export interface BoardQueryOptions {
  /**
   * Calls back on every change that can alter which lists match (the app's event bus);
   * with it, counts are kept until then. Without it (the command line) nothing is kept.
   */
  onChange?: (listener: () => void, store: DisposableStore) => Disposable;
}

export function createBoardQuery(db: Db, options: BoardQueryOptions = {}) {
  if (!registered.has(db)) {
    // Same folding as shared/boardView's containsText: SQLite's LIKE folds ASCII only.
    db.function(CONTAINS, { deterministic: true }, (haystack: unknown, needle: unknown) =>
      typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle) ? 1 : 0,
    );
    registered.add(db);
  }
  const page = db.prepare<[Params & { limit: number; offset: number }], GroupRow>(PAGE);
  const count = db.prepare<[Params], { total: number }>(COUNT);
  const pageAfter = db.prepare<[Params & { limit: number; after_at: number; after_id: string }], GroupRow>(PAGE_AFTER);
  const keysAfter = db.prepare<
    [Params & { limit: number; after_at: number; after_id: string }],
    Pick<GroupRow, 'activity_at' | 'conversation_id'>
  >(KEYS_AFTER);
  const tasksOf = db.prepare<[string], TaskRow>(
    'SELECT * FROM tasks WHERE list_id IN (SELECT value FROM json_each(?)) ORDER BY list_id, position, seq',
  );
  const depsOf = db.prepare<[string], { task_id: number; blocked_by_id: number }>(
    `SELECT d.task_id, d.blocked_by_id FROM task_deps d JOIN tasks t ON t.id = d.task_id
     WHERE t.list_id IN (SELECT value FROM json_each(?))`,
  );
  const oneGroup = db.prepare<[string], GroupRow>(
    `SELECT l.id AS list_id, l.conversation_id, l.created_at, c.title, c.folder_id, f.name AS folder_name, c.updated_at AS activity_at
     FROM task_lists l JOIN conversations c ON c.id = l.conversation_id LEFT JOIN folders f ON f.id = c.folder_id
     WHERE l.conversation_id = ? AND l.closed_at IS NULL AND c.parent_id IS NULL`,
  );

  // Counting reads every open list; opening the board again, or paging, need not.
  const counts = new Map<string, number>();
  const disposables = new DisposableStore();
  options.onChange?.(() => counts.clear(), disposables);
  function total(params: Params): number {
    const key = JSON.stringify(params);
    let known = options.onChange ? counts.get(key) : undefined;
    if (known === undefined) {
      known = count.get(params)?.total ?? 0;
      if (options.onChange) counts.set(key, known);
    }
    return known;
  }

  function paramsOf(filter: BoardFilter): Params {
    const text = foldText(filter.text);
    const any = filter.statuses.length === 0;
    const chosen = (status: BoardFilter['statuses'][number]) => (any || filter.statuses.includes(status) ? 1 : 0);
    return {
      text,
      folder: filter.folderId,
      show_completed: filter.showCompleted ? 1 : 0,
      no_task_filter: any && text === '' ? 1 : 0,
      in_progress: chosen('in_progress'),
      pending: chosen('pending'),
      blocked: chosen('blocked'),
      completed: chosen('completed'),
      // Cancelled tasks are shown only when no status is chosen.
      cancelled: any ? 1 : 0,
    };
  }

  /** Rows of many lists in two statements, by list id. */
  function rowsOf(listIds: number[]): Map<number, ListRows> {
    const byList = new Map<number, ListRows>(listIds.map((id) => [id, { rows: [], blockers: new Map() }]));
    const ids = JSON.stringify(listIds);
    const listOfRow = new Map<number, number>();
    for (const row of tasksOf.all(ids)) {
      byList.get(row.list_id)?.rows.push(row);
      listOfRow.set(row.id, row.list_id);
    }
    for (const dep of depsOf.all(ids)) {
      const blockers = byList.get(listOfRow.get(dep.task_id) ?? -1)?.blockers;
      blockers?.set(dep.task_id, [...(blockers.get(dep.task_id) ?? []), dep.blocked_by_id]);
    }
    return byList;
  }

  function toGroups(rows: GroupRow[]): BoardGroup[] {
    const lists = rowsOf(rows.map((r) => r.list_id));
    return rows.map((row) => ({
      conversationId: row.conversation_id,
      title: row.title,
      folder: row.folder_id === null ? null : { id: row.folder_id, name: row.folder_name ?? '' },
      activityAt: row.activity_at,
      list: taskListFrom(
        { id: row.list_id, conversationId: row.conversation_id, createdAt: row.created_at, closedAt: null },
        lists.get(row.list_id)!,
      ),
    }));
  }

  return {
    /** One page of matching groups and how many match in all. */
    page(filter: BoardFilter, offset: number, limit: number): { total: number; groups: BoardGroup[] } {
      const params = paramsOf(filter);
      const rows = page.all({ ...params, offset, limit });
      // A short first page is the whole board: no need to count.
      return { total: offset === 0 && rows.length < limit ? rows.length : total(params), groups: toGroups(rows) };
    },
    /** The next `limit` matching groups after the one with this activity and conversation (board order). */
    after(filter: BoardFilter, after: { activityAt: number; conversationId: string }, limit: number): BoardGroup[] {
      const rows = pageAfter.all({
        ...paramsOf(filter),
        limit,
        after_at: after.activityAt,
        after_id: after.conversationId,
      });
      return toGroups(rows);
    },
    /**
     * How many of the next `limit` matching groups follow this one (board order), and the
     * last of them: a count in slices, each as short as its page.
     */
    countAfter(
      filter: BoardFilter,
      after: { activityAt: number; conversationId: string },
      limit: number,
    ): { counted: number; last: { activityAt: number; conversationId: string } | null } {
      const keys = keysAfter.all({
        ...paramsOf(filter),
        limit,
        after_at: after.activityAt,
        after_id: after.conversationId,
      });
      const last = keys[keys.length - 1];
      return {
        counted: keys.length,
        last: last ? { activityAt: last.activity_at, conversationId: last.conversation_id } : null,
      };
    },
    /** Every matching group, in board order (an export of what the board shows). */
    all(filter: BoardFilter): BoardGroup[] {
      return toGroups(page.all({ ...paramsOf(filter), offset: 0, limit: -1 }));
    },
    close(): void {
      disposables.dispose();
    },
    /** One conversation's group, or null when the board would not list it under the filter. */
    group(conversationId: string, filter: BoardFilter): BoardGroup | null {
      const row = oneGroup.get(conversationId);
      if (!row) return null;
      const [group] = toGroups([row]);
      return listMatches({ title: row.title, folderId: row.folder_id, tasks: group.list.tasks }, filter) ? group : null;
    },
  };
}

export type BoardQuery = ReturnType<typeof createBoardQuery>;
