// Conversations written in many small transactions and shown all at once: a large import
// writes under a staging row that no list shows (its conversations have it as their parent,
// as a worker's transcript has its conversation; the staging row is its own parent), giving
// way to other calls between transactions, then publishes everything in one transaction.
// A crash before that leaves only the staging row and what hangs off it, which the next
// start deletes (ON DELETE CASCADE takes its conversations and their messages).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/openDatabase';

export interface ImportStaging {
  /** A new staging row; conversations written with it as `parent_id` stay hidden. */
  open(now: number): string;
  /** Shows every conversation under `id`, and removes the staging row: one transaction. */
  publish(id: string): void;
  /** Deletes the staging row and everything written under it. */
  drop(id: string): void;
  /** Start-up: deletes what an import stopped by a crash left. Returns the rows dropped. */
  dropAbandoned(): number;
}

export function createImportStaging(db: Db): ImportStaging {
  const insert = db.prepare(
    `INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source, parent_id)
     VALUES (@id, 'Import in progress', @now, @now, 0, 'user', @id)`,
  );
  const show = db.prepare('UPDATE conversations SET parent_id = NULL WHERE parent_id = @id AND id <> @id');
  const remove = db.prepare('DELETE FROM conversations WHERE id = ? AND parent_id = id');
  const abandoned = db.prepare('DELETE FROM conversations WHERE parent_id = id');
  return {
    open(now) {
      const id = randomUUID();
      insert.run({ id, now });
      return id;
    },
    publish: db.transaction((id: string) => {
      show.run({ id });
      remove.run(id);
    }),
    drop: (id) => void remove.run(id),
    dropAbandoned: () => abandoned.run().changes,
  };
}
