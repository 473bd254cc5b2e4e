// Which tasks a reorder moved. A reorder names only the new order, so "moved" means the
// fewest tasks that, taken out and put back, give that order: every task outside one
// longest run of tasks still in their old relative order. Moving task 4 to the top of
// 1-2-3-4 moved task 4, not the three it passed. These tasks carry the reorder's source
// ("Changed by claude-code"), as a renamed task carries a rename's.

/**
 * Ids in `order` that moved relative to `before` (the same ids in their old order).
 * O(n log n); lists hold at most 200 tasks.
 */
export function movedTasks(before: readonly number[], order: readonly number[]): Set<number> {
  const rank = new Map(before.map((id, index) => [id, index]));
  const ranks = order.map((id) => rank.get(id) ?? -1);
  // Patience sorting: tails[k] is the index (in `order`) ending the smallest-ranked run of length k + 1.
  const tails: number[] = [];
  const previous: number[] = Array.from({ length: ranks.length }, () => -1);
  ranks.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (ranks[tails[middle]] < value) low = middle + 1;
      else high = middle;
    }
    previous[index] = low > 0 ? tails[low - 1] : -1;
    tails[low] = index;
  });
  const stayed = new Set<number>();
  for (let index = tails.at(-1) ?? -1; index !== -1; index = previous[index]) stayed.add(order[index]);
  return new Set(order.filter((id) => !stayed.has(id)));
}
