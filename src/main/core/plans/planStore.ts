// What plan review keeps in SQLite (migration 19): each conversation's "Review plans"
// choice, every review of a plan (plan_revisions), and the plan as the model last left
// it plus an amendment held for the user (plan_drafts).
import { z } from 'zod';
import { PlanComments, PlanReviewMode, PlanTask, type PlanRevision } from '../../../shared/planContract';
import type { Db } from '../db/openDatabase';

interface RevisionRow {
  list_id: number;
  revision: number;
  tasks: string;
  comments: string;
  approved_at: number | null;
  created_at: number;
}

const Tasks = z.array(PlanTask);
const NO_COMMENTS: PlanComments = { general: '', tasks: [] };

/** Stored JSON is ours, but a damaged row must not break a conversation: it reads as empty. */
function parsed<T>(schema: z.ZodType<T>, text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : fallback;
  } catch {
    return fallback;
  }
}

export function toRevision(row: RevisionRow): PlanRevision {
  return {
    revision: row.revision,
    tasks: parsed(Tasks, row.tasks, []),
    comments: parsed(PlanComments, row.comments, NO_COMMENTS),
    approvedAt: row.approved_at,
    createdAt: row.created_at,
  };
}

export function createPlanStore(db: Db) {
  // The gate's question in one indexed query: no list built, no JSON parsed (bench/planGate.bench.ts).
  const gateRow = db.prepare<
    [string],
    { mode: string | null; list_id: number | null; total: number; open: number; approved: number; done: number }
  >(
    `SELECT c.plan_review AS mode, l.id AS list_id,
       (SELECT COUNT(*) FROM tasks t WHERE t.list_id = l.id) AS total,
       (SELECT COUNT(*) FROM tasks t WHERE t.list_id = l.id AND t.status NOT IN ('completed', 'cancelled')) AS open,
       EXISTS (SELECT 1 FROM plan_revisions r WHERE r.conversation_id = c.id AND r.list_id = l.id AND r.approved_at IS NOT NULL) AS approved,
       EXISTS (SELECT 1 FROM plans_done d WHERE d.conversation_id = c.id AND d.list_id = l.id) AS done
     FROM conversations c LEFT JOIN task_lists l ON l.conversation_id = c.id AND l.closed_at IS NULL
     WHERE c.id = ?`,
  );
  // The open list as PlanTask[] JSON beside its last approved revision's: equal text is the
  // cheap "nothing held" answer for "Every plan" (the gate asks before each acting call).
  const heldRow = db.prepare<[string], { approved: string; now: string }>(
    `SELECT r.tasks AS approved,
       (SELECT json_group_array(json_object('id', seq, 'title', title))
        FROM (SELECT seq, title FROM tasks WHERE list_id = r.list_id ORDER BY position, seq)) AS now
     FROM plan_revisions r JOIN task_lists l ON l.id = r.list_id AND l.closed_at IS NULL
     WHERE r.conversation_id = ? AND r.approved_at IS NOT NULL ORDER BY r.revision DESC LIMIT 1`,
  );
  // Whether the open list has an approved revision at all: without one no phase is
  // 'approved', so a task tool's call needs nothing more (it runs after every change).
  // A subquery, not a join: the join took several times as long (docs/performance.md).
  // Positional, not named: it runs after every task tool call, and binding an object costs more than the lookup.
  const openApproved = db.prepare<[string, string], { found: number }>(
    `SELECT 1 AS found FROM plan_revisions
     WHERE conversation_id = ? AND approved_at IS NOT NULL
       AND list_id = (SELECT id FROM task_lists WHERE conversation_id = ? AND closed_at IS NULL)
     LIMIT 1`,
  );
  const isDone = db.prepare<[string, number], { list_id: number }>(
    'SELECT list_id FROM plans_done WHERE conversation_id = ? AND list_id = ?',
  );
  const markDone = db.prepare<[string, number]>(
    'INSERT OR IGNORE INTO plans_done (conversation_id, list_id) VALUES (?, ?)',
  );
  const unmarkDone = db.prepare<[string, number]>('DELETE FROM plans_done WHERE conversation_id = ? AND list_id = ?');
  const readMode = db.prepare<[string], { plan_review: string | null }>(
    'SELECT plan_review FROM conversations WHERE id = ?',
  );
  const writeMode = db.prepare<[string, string]>('UPDATE conversations SET plan_review = ? WHERE id = ?');
  const lastApproved = db.prepare<[string, number], RevisionRow>(
    `SELECT * FROM plan_revisions WHERE conversation_id = ? AND list_id = ? AND approved_at IS NOT NULL
     ORDER BY revision DESC LIMIT 1`,
  );
  const countRevisions = db.prepare<[string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM plan_revisions WHERE conversation_id = ? AND list_id = ?',
  );
  const insertRevision = db.prepare(
    `INSERT INTO plan_revisions (conversation_id, list_id, revision, tasks, comments, approved_at, created_at)
     VALUES (@conversationId, @listId, @revision, @tasks, @comments, @approvedAt, @createdAt)`,
  );
  const allRevisions = db.prepare<[string], RevisionRow>(
    'SELECT * FROM plan_revisions WHERE conversation_id = ? ORDER BY created_at, list_id, revision',
  );
  const readDraft = db.prepare<[string], { list_id: number; tasks: string }>(
    'SELECT list_id, tasks FROM plan_drafts WHERE conversation_id = ?',
  );
  // The main agent's calls held since the conversation's last approval: they wait for it.
  const heldRows = db.prepare<
    [string, string],
    { tool_call_id: string; agent_id: string; transcript_id: string; name: string; arguments: string }
  >(
    `SELECT tool_call_id, agent_id, transcript_id, name, arguments FROM tool_calls
     WHERE conversation_id = ? AND outcome = 'held' AND agent_id = 'main'
       AND started_at > COALESCE((SELECT MAX(approved_at) FROM plan_revisions WHERE conversation_id = ?), 0)
     ORDER BY id LIMIT 200`,
  );
  const writeDraft = db.prepare(
    `INSERT INTO plan_drafts (conversation_id, list_id, tasks) VALUES (?, ?, ?)
     ON CONFLICT (conversation_id) DO UPDATE SET list_id = excluded.list_id, tasks = excluded.tasks`,
  );

  return {
    /** What the gate needs: the own mode (null: default), and the open list's size, open tasks and approval. */
    gate(
      conversationId: string,
    ): { mode: PlanReviewMode | null; total: number; open: number; approved: boolean; done: boolean } | undefined {
      const row = gateRow.get(conversationId);
      if (!row) return undefined;
      const mode = PlanReviewMode.safeParse(row.mode);
      return {
        mode: mode.success ? mode.data : null,
        total: row.list_id === null ? 0 : row.total,
        open: row.open,
        approved: row.approved === 1,
        done: row.done === 1,
      };
    },
    /** Whether the conversation's open list has an approved revision (finished or not). */
    hasOpenApproval(conversationId: string): boolean {
      return openApproved.get(conversationId, conversationId) !== undefined;
    },
    /** The approved plan of this list was finished by a turn: later work on it needs a review. */
    isDone(conversationId: string, listId: number): boolean {
      return isDone.get(conversationId, listId) !== undefined;
    },
    setDone(conversationId: string, listId: number, done: boolean): void {
      if (done) markDone.run(conversationId, listId);
      else unmarkDone.run(conversationId, listId);
    },
    /** Whether the open list differs from its last approved revision (ids, titles, order). */
    differsFromApproved(conversationId: string): boolean {
      const row = heldRow.get(conversationId);
      if (!row) return false;
      if (row.approved === row.now) return false;
      // Texts can differ in escaping alone: compare the tasks themselves.
      const approved = parsed(Tasks, row.approved, []);
      const now = parsed(Tasks, row.now, []);
      return approved.length !== now.length || approved.some((t, i) => t.id !== now[i].id || t.title !== now[i].title);
    },
    /** The conversation's own choice, null when it follows the default, undefined when it does not exist. */
    mode(conversationId: string): PlanReviewMode | null | undefined {
      const row = readMode.get(conversationId);
      if (!row) return undefined;
      const mode = PlanReviewMode.safeParse(row.plan_review);
      return mode.success ? mode.data : null;
    },
    setMode(conversationId: string, mode: PlanReviewMode): boolean {
      return writeMode.run(mode, conversationId).changes > 0;
    },
    approved(conversationId: string, listId: number): PlanRevision | null {
      const row = lastApproved.get(conversationId, listId);
      return row ? toRevision(row) : null;
    },
    nextRevision(conversationId: string, listId: number): number {
      return countRevisions.get(conversationId, listId)!.n + 1;
    },
    addRevision(conversationId: string, listId: number, revision: Omit<PlanRevision, 'revision'>): PlanRevision {
      const number = countRevisions.get(conversationId, listId)!.n + 1;
      insertRevision.run({
        conversationId,
        listId,
        revision: number,
        tasks: JSON.stringify(revision.tasks),
        comments: JSON.stringify(revision.comments),
        approvedAt: revision.approvedAt,
        createdAt: revision.createdAt,
      });
      return { ...revision, revision: number };
    },
    revisions(conversationId: string): PlanRevision[] {
      return allRevisions.all(conversationId).map(toRevision);
    },
    /** The plan as the model left it (what the user's edits are compared with), for this list only. */
    draft(conversationId: string, listId: number): PlanTask[] | null {
      const row = readDraft.get(conversationId);
      return row && row.list_id === listId ? parsed(Tasks, row.tasks, []) : null;
    },
    setDraft(conversationId: string, listId: number, tasks: PlanTask[]): void {
      writeDraft.run(conversationId, listId, JSON.stringify(tasks));
    },
    /** The main agent's calls held for the plan's approval (since the last approval), oldest first. */
    held(conversationId: string) {
      return heldRows.all(conversationId, conversationId).map((row) => ({
        toolCallId: row.tool_call_id,
        agentId: row.agent_id,
        transcriptId: row.transcript_id,
        name: row.name,
        arguments: row.arguments,
      }));
    },
  };
}

export type PlanStore = ReturnType<typeof createPlanStore>;
