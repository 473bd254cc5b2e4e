// SQL only: the `task_continuity` row of a conversation (migration 16).
import type { ContinuityKind } from '../../../shared/continuityContract';
import type { Db } from '../db/openDatabase';

export type ContinuityState = 'running' | ContinuityKind;

/**
 * Marks the conversations cut off while they ran (exported for its query-plan test). Driven
 * by the two small sets (lists left running, workers left live: migration 26's partial
 * indexes), each a primary-key lookup in conversations, not a walk over them (the unary +
 * keeps the planner off the parent_id index, which lists every top-level conversation).
 */
export const CUT_OFF_SQL = `INSERT INTO task_continuity (conversation_id, state, at)
     SELECT c.id, 'interrupted', ? FROM conversations c
     WHERE c.id IN (SELECT conversation_id FROM task_continuity WHERE state = 'running'
                    UNION SELECT conversation_id FROM workers WHERE status IN ('queued', 'running'))
       AND +c.parent_id IS NULL
     ON CONFLICT (conversation_id) DO UPDATE SET state = 'interrupted', at = excluded.at`;

export function createContinuityStore(db: Db) {
  const read = db.prepare<[string], { state: ContinuityState }>(
    'SELECT state FROM task_continuity WHERE conversation_id = ?',
  );
  // Only top-level conversations: a worker's transcript is a child conversation whose
  // runs belong to its parent (they are counted from the workers table instead).
  const write = db.prepare<[string, ContinuityState, number, string]>(
    `INSERT INTO task_continuity (conversation_id, state, at)
     SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ? AND parent_id IS NULL)
     ON CONFLICT (conversation_id) DO UPDATE SET state = excluded.state, at = excluded.at`,
  );
  const remove = db.prepare<[string]>('DELETE FROM task_continuity WHERE conversation_id = ?');
  const cutOff = db.prepare<[number]>(CUT_OFF_SQL);

  return {
    state(conversationId: string): ContinuityState | null {
      return read.get(conversationId)?.state ?? null;
    },
    /** Returns whether the stored state changed. */
    set(conversationId: string, state: ContinuityState | null, at: number): boolean {
      const before = this.state(conversationId);
      if (before === state) return false;
      if (state === null) remove.run(conversationId);
      else write.run(conversationId, state, at, conversationId);
      return true;
    },
    /**
     * At start-up, before the workers module marks its leftovers stopped: conversations
     * whose agent (a row left `running`) or workers were running when the last process
     * ended are `interrupted`.
     */
    markCutOff(at: number): number {
      return cutOff.run(at).changes;
    },
  };
}

export type ContinuityStore = ReturnType<typeof createContinuityStore>;
