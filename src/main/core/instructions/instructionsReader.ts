// Read-only access to a conversation's own instructions (exports; SELECT only).
import type { Db } from '../db/openDatabase';

export function createInstructionsReader(db: Db): (conversationId: string) => string | null {
  const textOf = db.prepare<[string], { text: string }>(
    'SELECT text FROM conversation_instructions WHERE conversation_id = ?',
  );
  return (conversationId) => textOf.get(conversationId)?.text ?? null;
}
