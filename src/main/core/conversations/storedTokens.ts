// Token counts kept in the messages table (migration 27), so that the first request after
// a start finds the history counted instead of tokenizing it again. A message read without
// a count (just written, imported, or from an older version) is counted in the background,
// a batch per macrotask, and its count stored; one read with a count hands it to the
// counter, whose lookups by text then find it.
import type { Db } from '../db/openDatabase';
import type { MessageCounts } from './messageRepo';

/** Characters counted per background batch (a few ms of tokenizing). */
const BATCH_CHARS = 16 * 1024;

/** The token counter's side (context/tokenCount.ts): its cache by text, and an exact count. */
export interface CountCache {
  known(text: string, tokens: number): void;
  exact(text: string): number;
}

export function createStoredTokens(db: Db, counter: CountCache) {
  // The content guard skips a row whose text changed since it was queued (it is queued again when read).
  const store = db.prepare<[number, number, string]>('UPDATE messages SET tokens = ? WHERE id = ? AND content = ?');
  const queue = new Map<number, string>();
  let scheduled: NodeJS.Immediate | null = null;
  let closed = false;

  function batch(): void {
    scheduled = null;
    if (closed) return;
    const counted: [number, number, string][] = [];
    let chars = 0;
    for (const [id, content] of queue) {
      queue.delete(id);
      counted.push([counter.exact(content), id, content]);
      chars += content.length;
      if (chars >= BATCH_CHARS) break;
    }
    try {
      db.transaction(() => {
        for (const row of counted) store.run(...row);
      })();
    } catch {
      // The database closed meanwhile: the rows are counted when next read.
      return queue.clear();
    }
    if (queue.size) schedule();
  }

  function schedule(): void {
    scheduled ??= setImmediate(batch);
    scheduled.unref?.();
  }

  const counts: MessageCounts = {
    known: (content, tokens) => counter.known(content, tokens),
    uncounted(id, content) {
      if (closed || queue.has(id)) return;
      queue.set(id, content);
      schedule();
    },
  };

  return {
    counts,
    /** Counts and stores everything queued now (tests, and before the database closes). */
    flush(): void {
      if (scheduled) clearImmediate(scheduled);
      while (queue.size && !closed) batch();
    },
    /** Rows left uncounted stay NULL: they are counted when next read. */
    dispose(): void {
      closed = true;
      if (scheduled) clearImmediate(scheduled);
      queue.clear();
    },
    pending: () => queue.size,
  };
}

export type StoredTokens = ReturnType<typeof createStoredTokens>;
