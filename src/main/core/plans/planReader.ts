// Read-only access to a conversation's plan review as stored — its "Review plans" choice
// and every plan revision — for exports: SELECTs only.
import { PlanReviewMode } from '../../../shared/planContract';
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';

export function createPlanReader(db: Db) {
  const modeOf = db.prepare<[string], { plan_review: string | null }>(
    'SELECT plan_review FROM conversations WHERE id = ?',
  );
  const revisionsOf = db.prepare<[string], Row<'plan_revisions'>>(
    'SELECT * FROM plan_revisions WHERE conversation_id = ? ORDER BY created_at, list_id, revision',
  );
  return {
    /** The conversation's choice, or null when none is stored (or it is not one the app knows). */
    mode(conversationId: string): PlanReviewMode | null {
      const mode = PlanReviewMode.safeParse(modeOf.get(conversationId)?.plan_review);
      return mode.success ? mode.data : null;
    },
    /** Every revision of every plan, oldest first. */
    revisions: (conversationId: string): Row<'plan_revisions'>[] => revisionsOf.all(conversationId),
  };
}
