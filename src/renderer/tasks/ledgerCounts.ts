// How many tool calls each task of a conversation's open list made, shared by every row
// of the header: one `ledger:counts` request per list, then live from `ledger:changed`.
import { call } from '../api/apiContext';
import { useQuery, type Query } from '../query/useQuery';

type Counts = ReadonlyMap<number, number>;

/** Keyed by list as well: ids restart at 1 in a new list, so its counts are asked for anew. */
function ledgerCounts(conversationId: string, listId: number): Query<Counts> {
  return {
    key: `ledger:counts ${conversationId} ${listId}`,
    async load(api) {
      const result = await call(api, 'ledger:counts', { conversationId });
      // The answer is for a newer list than this view's: none of its calls are this list's.
      return new Map(result.listId === listId ? result.counts.map((c) => [c.taskId, c.count]) : []);
    },
    follow: (api, control) =>
      api.on('ledger:changed', (change) => {
        if (change.conversationId !== conversationId || change.listId !== listId) return;
        const counts = control.current();
        // One task's count is not the list's: before the first answer, ask again (the
        // answer then includes this call) rather than show the others as 0.
        if (!counts) control.reload();
        else control.set(new Map(counts).set(change.taskId, change.count));
      }),
  };
}

/** The number of tool calls a task of the open list `listId` made so far. */
export function useToolCallCount(conversationId: string, listId: number, taskId: number): number {
  // Each row renders only when its own count changes.
  const [count] = useQuery(ledgerCounts(conversationId, listId), 0, (counts) => counts.get(taskId) ?? 0);
  return count;
}
