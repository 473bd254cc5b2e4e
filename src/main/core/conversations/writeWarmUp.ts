// The session's first write pays for what later writes find ready: the WAL's header
// written and synced (the first commit after a clean close finds no WAL), and the pages,
// trigger programs and text index that a message's insert touches read in. Run once in
// idle time after start-up (llm/sendWarmUp.ts), so the first send does not pay it.
// Nothing changes: the message is written and rolled back, the schema's version is written
// as it is. Returns that conversation: the next warm-up step builds its request.
import type { Db } from '../db/openDatabase';

class RolledBack extends Error {}

export function createWriteWarmUp(db: Db): () => string | null {
  // Where the user last wrote: the conversation of the newest message.
  const newest = db.prepare<[], { conversation_id: string; id: number }>(
    'SELECT conversation_id, id FROM messages ORDER BY id DESC LIMIT 1',
  );
  // The shape of a user message's insert (messageRepo.ts), so its indexes and triggers run.
  const insert = db.prepare(
    `INSERT INTO messages (conversation_id, role, content, created_at, status, origin, parent_id, chosen, shown, kind)
     VALUES (?, 'user', 'warm-up', 0, 'complete', 'user', ?, 1, 1, 'text')`,
  );
  const version = db.prepare<[], number>('PRAGMA user_version').pluck();
  return () => {
    const last = newest.get();
    try {
      if (last) {
        db.transaction(() => {
          insert.run(last.conversation_id, last.id);
          throw new RolledBack();
        })();
      }
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
    db.pragma(`user_version = ${Number(version.get())}`);
    return last?.conversation_id ?? null;
  };
}
