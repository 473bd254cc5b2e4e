import { describe, expect, it } from 'vitest';
import { PARSE_BUDGET, takeParseBudget, whenParseBudget } from '../../src/renderer/chat/parseBudget';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('the Markdown parse budget', () => {
  it('lets a task parse a budget of blocks, then defers the rest to the next task', async () => {
    await nextTask();
    const block = PARSE_BUDGET / 4;
    const granted = Array.from({ length: 6 }, () => takeParseBudget(block));
    expect(granted).toEqual([true, true, true, true, false, false]);
    // The block a stream grows is never deferred; a later task starts afresh.
    expect(takeParseBudget(block, true)).toBe(true);
    await nextTask();
    expect(takeParseBudget(block)).toBe(true);
  });

  it('always grants the first block of a task, however large', async () => {
    await nextTask();
    expect(takeParseBudget(PARSE_BUDGET * 3)).toBe(true);
    expect(takeParseBudget(1)).toBe(false);
  });

  it('wakes deferred blocks in the next task, and not a cancelled one', async () => {
    await nextTask();
    takeParseBudget(PARSE_BUDGET);
    const woken: string[] = [];
    whenParseBudget(() => woken.push('kept'));
    const cancel = whenParseBudget(() => woken.push('cancelled'));
    cancel();
    expect(woken).toEqual([]);
    await nextTask();
    expect(woken).toEqual(['kept']);
    expect(takeParseBudget(PARSE_BUDGET)).toBe(true);
  });
});
