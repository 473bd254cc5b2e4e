// The throttle keeps a fast stream to one run per interval, also when its timer cannot fire.
import { describe, expect, it, vi } from 'vitest';
import { createThrottle } from '../../src/main/core/llm/throttle';

const busyFor = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* a stream read in one run of microtasks */
  }
};

describe('createThrottle', () => {
  it('runs once per interval while the event loop is busy, instead of once at the end', () => {
    let runs = 0;
    const throttle = createThrottle(() => runs++, 10);
    for (let i = 0; i < 6; i++) {
      throttle.schedule();
      busyFor(12);
    }
    throttle.schedule();
    expect(runs).toBeGreaterThanOrEqual(5);
    throttle.cancel();
  });

  it('runs at once, then once more after the interval for all the calls made meanwhile', async () => {
    const seen: number[] = [];
    let value = 0;
    const throttle = createThrottle(() => seen.push(value), 50);
    for (value = 1; value <= 100; value++) throttle.schedule();
    value = 100;
    expect(seen).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(seen).toEqual([1, 100]);
  });

  it('runs nothing more after cancel', async () => {
    let runs = 0;
    const throttle = createThrottle(() => runs++, 5);
    throttle.schedule();
    throttle.schedule();
    throttle.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(1);
  });

  it('with leading off, runs first a whole interval after it was made, once for all the calls before', async () => {
    const seen: number[] = [];
    let value = 0;
    const throttle = createThrottle(() => seen.push(value), 40, { leading: false });
    for (value = 1; value <= 10; value++) throttle.schedule();
    value = 10;
    expect(seen).toEqual([]);
    await vi.waitFor(() => expect(seen).toEqual([10]));
    throttle.cancel();
  });
});
