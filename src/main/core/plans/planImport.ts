// Plan data written back by a conversation import (export/conversationWrite.ts): the
// plans folder owns these tables, so their import writer lives here.
import type { PlanRevisionExport } from '../../../shared/exportFormat';
import type { PlanReviewMode } from '../../../shared/planContract';
import type { Db } from '../db/openDatabase';

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
