// A conversation's own instructions written by an import (export/conversationWrite.ts),
// inside the import's transaction: the instructions folder owns the table.
import type { Db } from '../db/openDatabase';

export function writeImportedInstructions(db: Db, conversationId: string, text: string, at: number): void {
  db.prepare('INSERT INTO conversation_instructions (conversation_id, text, updated_at) VALUES (?, ?, ?)').run(
    conversationId,
    text,
    at,
  );
}
