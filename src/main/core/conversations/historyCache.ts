// The full history of the few conversations being worked on, kept in memory: every agent
// round reads it, and reading 100,000 rows from SQLite each round costs a third of a second.
// Writes made inside a transaction drop the entry instead (a rollback would leave it wrong).
import type { Message } from '../../../shared/domain';

/** Conversations whose history stays cached (the open one, its workers, a recent switch). */
const KEEP = 4;

function indexOf(messages: readonly Message[], id: number): number {
  let low = 0;
  let high = messages.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (messages[mid].id === id) return mid;
    if (messages[mid].id < id) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

export function createHistoryCache() {
  const entries = new Map<string, Message[]>();
  return {
    /** A copy of the cached history, loading it with `load` when absent. */
    read(conversationId: string, load: () => Message[]): Message[] {
      let history = entries.get(conversationId);
      if (history) entries.delete(conversationId);
      else history = load();
      entries.set(conversationId, history); // most recently used last
      while (entries.size > KEEP) entries.delete(entries.keys().next().value!);
      return history.slice();
    },
    /** A message was stored or changed. */
    write(message: Message): void {
      const history = entries.get(message.conversationId);
      if (!history) return;
      const at = indexOf(history, message.id);
      if (at >= 0) history[at] = message;
      else if (!history.length || history[history.length - 1].id < message.id) history.push(message);
      else entries.delete(message.conversationId);
    },
    drop(conversationId: string): void {
      entries.delete(conversationId);
    },
    clear(): void {
      entries.clear();
    },
  };
}
