// Read-only access to conversations and their messages as stored, for exports: SELECTs
// only, so the command line's read-only connection can use it too.
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';
import type { MessageRow } from './messageRepo';

export function createConversationReader(db: Db) {
  const byId = db.prepare<[string], Row<'conversations'>>('SELECT * FROM conversations WHERE id = ?');
  // Worker transcripts (a parent) belong to their parent conversation, so they are not listed.
  const topLevel = db.prepare<[], Row<'conversations'>>(
    'SELECT * FROM conversations WHERE parent_id IS NULL ORDER BY pinned DESC, updated_at DESC, id',
  );
  const messagesOf = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id');
  return {
    row: (id: string): Row<'conversations'> | undefined => byId.get(id),
    /** Top-level conversations in sidebar order: pinned first, then most recent. */
    topLevelRows: (): Row<'conversations'>[] => topLevel.all(),
    /** Every message of one transcript, every branch, oldest first. */
    messageRows: (conversationId: string): MessageRow[] => messagesOf.all(conversationId),
  };
}

export type ConversationReader = ReturnType<typeof createConversationReader>;
