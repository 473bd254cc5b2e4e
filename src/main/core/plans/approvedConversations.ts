// The conversations that ever had a plan approved, kept in memory: the check after every
// task tool call (planModule's `onRan`) asks the database only about those, and most
// task calls come in conversations that never had one. Right by construction: a TEMP
// trigger adds every approved revision written on this connection (a review, an
// amendment, an import); a commit by another connection reloads the set. Its only
// possible error is a conversation too many (a rolled-back approval, a deleted
// conversation), and then the database answers.
import type { Db } from '../db/openDatabase';
import { commitsElsewhere, watchWrites } from '../db/writeWatch';

export function createApprovedConversations(db: Db) {
  const approved = db
    .prepare<[], string>('SELECT DISTINCT conversation_id FROM plan_revisions WHERE approved_at IS NOT NULL')
    .pluck();
  const elsewhere = commitsElsewhere(db);
  let ids: Set<string> | null = null;
  watchWrites(
    db,
    'plan_approval',
    (fn) => `
      CREATE TEMP TRIGGER IF NOT EXISTS stepwise_plan_approved AFTER INSERT ON plan_revisions
        WHEN new.approved_at IS NOT NULL BEGIN SELECT ${fn}(new.conversation_id); END;
      CREATE TEMP TRIGGER IF NOT EXISTS stepwise_plan_approval_changed AFTER UPDATE ON plan_revisions
        WHEN new.approved_at IS NOT NULL BEGIN SELECT ${fn}(new.conversation_id); END;
    `,
    (conversationId) => {
      if (typeof conversationId === 'string') ids?.add(conversationId);
    },
  );
  return {
    /** False only when no plan of the conversation was ever approved. */
    mayHave(conversationId: string): boolean {
      if (elsewhere()) ids = null;
      ids ??= new Set(approved.all());
      return ids.has(conversationId);
    },
  };
}
