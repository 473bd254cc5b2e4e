// Share calls pass one per turn of the event loop, in order: what the app queued meanwhile
// runs between two of them, not after a whole burst.
import { describe, expect, it } from 'vitest';
import { oneCallPerTurn } from '../../src/main/core/taskShare/shareTurns';

describe('one share call per turn', () => {
  it('lets the app run between two calls of a burst, and keeps the calls in order', async () => {
    const nextTurn = oneCallPerTurn();
    const order: string[] = [];
    const burst = [1, 2, 3].map((n) =>
      nextTurn().then(() => {
        order.push(`call ${n}`);
        // The app's own request, arriving while the burst runs.
        if (n === 1) setImmediate(() => order.push('app'));
      }),
    );
    await Promise.all(burst);
    expect(order).toEqual(['call 1', 'app', 'call 2', 'call 3']);
  });

  it('passes a call that comes alone on the next turn', async () => {
    const nextTurn = oneCallPerTurn();
    let passed = false;
    const call = nextTurn().then(() => (passed = true));
    expect(passed).toBe(false);
    await call;
    expect(passed).toBe(true);
  });
});
