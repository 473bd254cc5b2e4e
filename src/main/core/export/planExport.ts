// Plan review in conversation exports: the conversation's "Review plans" choice and every
// revision of every plan (`planRevisions`, read by exportReader.ts through plans/planReader.ts),
// in JSON and as the Markdown "Plan" section, and written back on import.
import type { PlanRevisionExport } from '../../../shared/exportFormat';
import { PlanReviewMode, type PlanRevision } from '../../../shared/planContract';
import type { Db } from '../db/openDatabase';
import { escapeMarkdownLine } from '../../../shared/markdownText';

export interface ReadPlans {
  mode: PlanReviewMode | null;
  /** Oldest first; `list` is the task list's number within the conversation (1..n). */
  revisions: Array<PlanRevision & { list: number }>;
}

export function plansJson(plans: ReadPlans, isoTime: (ms: number) => string): PlanRevisionExport[] {
  return plans.revisions.map((r) => ({
    list: r.list,
    revision: r.revision,
    tasks: r.tasks,
    comments: r.comments,
    approvedAt: r.approvedAt === null ? null : isoTime(r.approvedAt),
    createdAt: isoTime(r.createdAt),
  }));
}

/** The "Plan" section's blocks: the last approved plan with its comments (none when nothing was approved). */
export function plansMarkdown(plans: ReadPlans, formatTime: (ms: number) => string): string[] {
  const approved = plans.revisions.filter((r) => r.approvedAt !== null).at(-1);
  if (!approved) return [];
  const items = approved.tasks.flatMap((task, index) => [
    `${index + 1}. ${escapeMarkdownLine(task.title)}`,
    ...approved.comments.tasks
      .filter((c) => c.taskId === task.id)
      .map((c) => `   - Comment: ${escapeMarkdownLine(c.text)}`),
  ]);
  return [
    '## Plan',
    `Approved ${formatTime(approved.approvedAt!)} · revision ${approved.revision} · ${approved.tasks.length} tasks`,
    items.join('\n'),
    ...(approved.comments.general ? [`Comment on the plan: ${escapeMarkdownLine(approved.comments.general)}`] : []),
  ];
}

/** Stores an import's plan data; `listIds` maps the file's list numbers to the new lists. */
export function writeImportedPlans(
  db: Db,
  conversationId: string,
  mode: PlanReviewMode | null | undefined,
  revisions: readonly PlanRevisionExport[] | undefined,
  listIds: ReadonlyMap<number, number>,
): void {
  // A file from before plan review comes from a conversation that had it off.
  db.prepare('UPDATE conversations SET plan_review = ? WHERE id = ?').run(
    mode === undefined ? 'off' : mode,
    conversationId,
  );
  const insert = db.prepare(
    `INSERT INTO plan_revisions (conversation_id, list_id, revision, tasks, comments, approved_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const r of revisions ?? []) {
    // The import checked that every revision's list is in the file.
    insert.run(
      conversationId,
      listIds.get(r.list),
      r.revision,
      JSON.stringify(r.tasks),
      JSON.stringify(r.comments),
      r.approvedAt === null ? null : Date.parse(r.approvedAt),
      Date.parse(r.createdAt),
    );
  }
}
