// Plan review in conversation exports: the conversation's "Review plans" choice and every
// revision of every plan (`planRevisions`, read by exportReader.ts through plans/planReader.ts),
// in JSON and as the Markdown "Plan" section, and written back on import.
import type { PlanRevisionExport } from '../../../shared/exportFormat';
import type { PlanReviewMode, PlanRevision } from '../../../shared/planContract';
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
