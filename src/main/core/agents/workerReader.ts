// Read-only access to a conversation's workers as stored (exports; SELECT only).
import type { Db } from '../db/openDatabase';
import type { WorkerRow } from './workerRepo';

/** The conversation's workers by number. */
export function createWorkerReader(db: Db): (conversationId: string) => WorkerRow[] {
  const workersOf = db.prepare<[string], WorkerRow>('SELECT * FROM workers WHERE conversation_id = ? ORDER BY number');
  return (conversationId) => workersOf.all(conversationId);
}
