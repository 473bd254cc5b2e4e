// The task board's reads: every open task list across conversations, filtered, newest
// activity first, one page at a time. The matching rules are shared/boardView.ts; the
// SQL here says the same thing so that paging and counting happen in SQLite, and the
// integration tests hold the two side by side.
import type { BoardGroup } from '../../../shared/boardContract';
import type { BoardFilterShape as BoardFilter } from '../../../shared/boardView';
import { foldText, listMatches } from '../../../shared/boardView';
import type { Db } from '../db/openDatabase';
import { taskListFrom, type ListRows } from './taskRows';
import type { TaskRow } from './taskStore';

const CONTAINS = 'stepwise_board_contains';

interface GroupRow {
  list_id: number;
  conversation_id: string;
  created_at: number;
  title: string;
  folder_id: string | null;
  folder_name: string | null;
  activity_at: number;
  total: number;
}

interface Params {
  text: string;
  folder: string | null;
  statuses: string;
  any_status: number;
  show_completed: number;
}

// The conversation title is matched once per list; a task's title only when there is
// text and the conversation's title did not match (OR stops at the first true term).
const MATCHING = `
  WITH lists AS (
    SELECT l.id AS list_id, l.conversation_id, l.created_at, c.title, c.folder_id, c.updated_at AS conversation_at,
           (@text = '' OR ${CONTAINS}(c.title, @text)) AS title_hit
    FROM task_lists l JOIN conversations c ON c.id = l.conversation_id
    WHERE l.closed_at IS NULL AND c.parent_id IS NULL AND (@folder IS NULL OR c.folder_id = @folder)
  ),
  marked AS (
    SELECT t.list_id, t.status, t.updated_at, t.title,
      CASE WHEN t.status = 'pending' AND EXISTS (
        SELECT 1 FROM task_deps d JOIN tasks b ON b.id = d.blocked_by_id
        WHERE d.task_id = t.id AND b.status IN ('pending', 'in_progress')
      ) THEN 'blocked' ELSE t.status END AS shown_status
    FROM tasks t WHERE t.list_id IN (SELECT list_id FROM lists)
  )
  SELECT lists.list_id, lists.conversation_id, lists.created_at, lists.title, lists.folder_id, f.name AS folder_name,
    MAX(lists.conversation_at, lists.created_at, MAX(m.updated_at)) AS activity_at,
    COUNT(*) OVER () AS total
  FROM lists JOIN marked m ON m.list_id = lists.list_id
  LEFT JOIN folders f ON f.id = lists.folder_id
  GROUP BY lists.list_id
  HAVING (@show_completed OR SUM(m.status IN ('pending', 'in_progress')) > 0)
    AND SUM((@any_status OR m.shown_status IN (SELECT value FROM json_each(@statuses)))
            AND (lists.title_hit OR ${CONTAINS}(m.title, @text))) > 0
  ORDER BY activity_at DESC, lists.list_id DESC`;

const registered = new WeakSet<Db>();

export function createBoardQuery(db: Db) {
  if (!registered.has(db)) {
    // Same folding as shared/boardView's containsText: SQLite's LIKE folds ASCII only.
    db.function(CONTAINS, { deterministic: true }, (haystack: unknown, needle: unknown) =>
      typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle) ? 1 : 0,
    );
    registered.add(db);
  }
  const page = db.prepare<[Params & { limit: number; offset: number }], GroupRow>(`${MATCHING} LIMIT @limit OFFSET @offset`);
  const count = db.prepare<[Params], { total: number }>(`SELECT COUNT(*) AS total FROM (${MATCHING})`);
  const tasksOf = db.prepare<[string], TaskRow>(
    'SELECT * FROM tasks WHERE list_id IN (SELECT value FROM json_each(?)) ORDER BY list_id, position, seq',
  );
  const depsOf = db.prepare<[string], { task_id: number; blocked_by_id: number }>(
    `SELECT d.task_id, d.blocked_by_id FROM task_deps d JOIN tasks t ON t.id = d.task_id
     WHERE t.list_id IN (SELECT value FROM json_each(?))`,
  );
  const oneGroup = db.prepare<[string], Omit<GroupRow, 'activity_at' | 'total'> & { conversation_at: number }>(
    `SELECT l.id AS list_id, l.conversation_id, l.created_at, c.title, c.folder_id, f.name AS folder_name, c.updated_at AS conversation_at
     FROM task_lists l JOIN conversations c ON c.id = l.conversation_id LEFT JOIN folders f ON f.id = c.folder_id
     WHERE l.conversation_id = ? AND l.closed_at IS NULL AND c.parent_id IS NULL`,
  );

  const paramsOf = (filter: BoardFilter): Params => ({
    text: foldText(filter.text),
    folder: filter.folderId,
    statuses: JSON.stringify(filter.statuses),
    any_status: filter.statuses.length === 0 ? 1 : 0,
    show_completed: filter.showCompleted ? 1 : 0,
  });

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

  function toGroups(rows: Array<Omit<GroupRow, 'total'>>): BoardGroup[] {
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
      // Past the end there is no row to carry the window's count.
      const total = rows[0]?.total ?? (offset > 0 ? (count.get(params)?.total ?? 0) : 0);
      return { total, groups: toGroups(rows) };
    },
    /** Every matching group, in board order (an export of what the board shows). */
    all(filter: BoardFilter): BoardGroup[] {
      return toGroups(page.all({ ...paramsOf(filter), offset: 0, limit: -1 }));
    },
    /** One conversation's group, or null when the board would not list it under the filter. */
    group(conversationId: string, filter: BoardFilter): BoardGroup | null {
      const row = oneGroup.get(conversationId);
      if (!row) return null;
      const [group] = toGroups([{ ...row, activity_at: 0 }]);
      const { list } = group;
      const activityAt = Math.max(row.conversation_at, row.created_at, ...list.tasks.map((t) => t.updatedAt));
      const matches = listMatches({ title: row.title, folderId: row.folder_id, tasks: list.tasks }, filter);
      return matches ? { ...group, activityAt } : null;
    },
  };
}

export type BoardQuery = ReturnType<typeof createBoardQuery>;
