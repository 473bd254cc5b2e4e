// What Autopilot keeps in SQLite: the per-conversation toggle (`conversations.autopilot`,
// NULL = follow the default setting) and, derived from the messages, how many automatic
// continuations were made since the user's last own message. Deriving the count keeps it
// right across restarts, edits and regenerations without bookkeeping of our own.
import type { Db } from '../db/openDatabase';

export function createAutopilotStore(db: Db) {
  const readToggle = db.prepare<[string], { autopilot: number | null }>(
    'SELECT autopilot FROM conversations WHERE id = ?',
  );
  const writeToggle = db.prepare<[number, string]>('UPDATE conversations SET autopilot = ? WHERE id = ?');
  const lastMessage = db.prepare<[string], { id: number | null }>(
    'SELECT MAX(id) AS id FROM messages WHERE conversation_id = ? AND shown = 1',
  );
  const countSteps = db.prepare<[{ conversation: string; after: number }], { n: number }>(
    `SELECT COUNT(*) AS n FROM messages
     WHERE conversation_id = @conversation AND shown = 1 AND role = 'user' AND origin = 'auto'
       AND id > MAX(@after, COALESCE((SELECT MAX(id) FROM messages
                                      WHERE conversation_id = @conversation AND shown = 1 AND role = 'user' AND origin = 'user'), 0))`,
  );

  return {
    /** The stored choice: true/false, null when the conversation follows the default, undefined when it does not exist. */
    toggle(conversationId: string): boolean | null | undefined {
      const row = readToggle.get(conversationId);
      if (!row) return undefined;
      return row.autopilot === null ? null : row.autopilot === 1;
    },
    setToggle(conversationId: string, enabled: boolean): boolean {
      return writeToggle.run(enabled ? 1 : 0, conversationId).changes > 0;
    },
    /** Automatic messages after the user's last own message and after message `after`. */
    steps(conversationId: string, after: number): number {
      return countSteps.get({ conversation: conversationId, after })!.n;
    },
    lastMessageId(conversationId: string): number {
      return lastMessage.get(conversationId)?.id ?? 0;
    },
  };
}

export type AutopilotStore = ReturnType<typeof createAutopilotStore>;
