// Which tasks a reorder moved: the fewest that, taken out and put back, give the new
// order. They carry the reorder's "Changed by".
import { describe, expect, it } from 'vitest';
import { movedTasks } from '../../src/main/core/tasks/movedTasks';

const moved = (before: number[], order: number[]) => [...movedTasks(before, order)].sort((a, b) => a - b);

describe('movedTasks', () => {
  it('names only the task moved to the top or the bottom, not the ones it passed', () => {
    expect(moved([1, 2, 3, 4], [4, 1, 2, 3])).toEqual([4]);
    expect(moved([1, 2, 3, 4], [2, 3, 4, 1])).toEqual([1]);
    expect(moved([1, 2, 3, 4, 5], [1, 4, 2, 3, 5])).toEqual([4]);
  });

  it('names nothing for the same order, and one of two swapped tasks', () => {
    expect(moved([1, 2, 3], [1, 2, 3])).toEqual([]);
    expect(moved([1, 2, 3], [2, 1, 3])).toHaveLength(1);
  });

  it('names all but one task of a reversed list', () => {
    expect(moved([1, 2, 3, 4], [4, 3, 2, 1])).toHaveLength(3);
  });

  it('keeps the longest run in its old order however the ids are numbered', () => {
    // Old order 5, 3, 9, 1: ids need not ascend.
    expect(moved([5, 3, 9, 1], [3, 9, 1, 5])).toEqual([5]);
    expect(moved([5, 3, 9, 1], [5, 1, 3, 9])).toEqual([1]);
  });

  it('names the fewest tasks for every order of five tasks', () => {
    const permutations = (items: number[]): number[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );
    // Brute force: the longest subsequence of the new order that is increasing.
    const longestKept = (order: number[]) => {
      let best = 0;
      for (let mask = 0; mask < 1 << order.length; mask++) {
        const kept = order.filter((_, i) => mask & (1 << i));
        if (kept.every((id, i) => i === 0 || kept[i - 1] < id)) best = Math.max(best, kept.length);
      }
      return best;
    };
    for (const order of permutations([1, 2, 3, 4, 5])) {
      const names = movedTasks([1, 2, 3, 4, 5], order);
      expect(names.size, order.join(',')).toBe(5 - longestKept(order));
      const kept = order.filter((id) => !names.has(id));
      expect(kept, order.join(',')).toEqual([...kept].sort((a, b) => a - b));
    }
  });
});
