// One text per conversation, kept in a table of its own (drafts, instructions). A new,
// not yet stored conversation may have one too; there is one such conversation at a
// time, so saving for it forgets the texts of older unsent ones the user abandoned.
import type { Db } from './openDatabase';

export interface ConversationTextTable {
  /** A table keyed by `conversation_id`, with `updated_at`. */
  table: 'drafts' | 'conversation_instructions';
  column: 'content' | 'text';
}

export function createConversationTextStore(db: Db, now: () => number, { table, column }: ConversationTextTable) {
  const select = db.prepare<[string], { text: string }>(
    `SELECT ${column} AS text FROM ${table} WHERE conversation_id = ?`,
  );
  const upsert = db.prepare(
    `INSERT INTO ${table} (conversation_id, ${column}, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (conversation_id) DO UPDATE SET ${column} = excluded.${column}, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare(`DELETE FROM ${table} WHERE conversation_id = ?`);
  const isStored = db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?');
  const forgetOtherNew = db.prepare(
    `DELETE FROM ${table} WHERE conversation_id <> ? AND conversation_id NOT IN (SELECT id FROM conversations)`,
  );

  return {
    /** The conversation's text, '' for none. */
    get: (conversationId: string): string => select.get(conversationId)?.text ?? '',
    /** Stores the text, or forgets it when empty. True when a text is stored. */
    set(conversationId: string, text: string): boolean {
      db.transaction(() => {
        if (!text) remove.run(conversationId);
        else upsert.run(conversationId, text, now());
        if (!isStored.get(conversationId)) forgetOtherNew.run(conversationId);
      })();
      return text.length > 0;
    },
  };
}
