import { describe, expect, it } from 'vitest';
import { createWorkerQueue } from '../../src/main/core/agents/workerQueue';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('worker queue', () => {
  it('runs at most the limit at once and starts waiting jobs first-in, first-out', async () => {
    const queue = createWorkerQueue(() => 2);
    const jobs = [deferred(), deferred(), deferred(), deferred()];
    const started: string[] = [];
    const results = jobs.map((job, i) =>
      queue.submit(`w${i + 1}`, async () => {
        started.push(`w${i + 1}`);
        await job.promise;
      }),
    );
    expect(results).toEqual(['started', 'started', 'queued', 'queued']);
    expect(queue.running()).toEqual(['w1', 'w2']);
    expect(queue.queued()).toEqual(['w3', 'w4']);

    jobs[1].resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual(['w1', 'w2', 'w3']);
    expect(queue.running().sort()).toEqual(['w1', 'w3']);

    jobs[0].resolve();
    jobs[2].resolve();
    jobs[3].resolve();
    await queue.idle();
    expect(started).toEqual(['w1', 'w2', 'w3', 'w4']);
    expect(queue.running()).toEqual([]);
  });

  it('frees the slot when a job fails', async () => {
    const queue = createWorkerQueue(() => 1);
    queue.submit('bad', async () => {
      throw new Error('boom');
    });
    let ran = false;
    expect(
      queue.submit('next', async () => {
        ran = true;
      }),
    ).toBe('queued');
    await queue.idle();
    expect(ran).toBe(true);
  });

  it('drops queued jobs without touching running ones', async () => {
    const queue = createWorkerQueue(() => 1);
    const gate = deferred();
    queue.submit('a', () => gate.promise);
    queue.submit('b', async () => {});
    queue.submit('c', async () => {});
    expect(queue.dropQueued()).toEqual(['b', 'c']);
    expect(queue.running()).toEqual(['a']);
    gate.resolve();
    await queue.idle();
    expect(queue.queued()).toEqual([]);
  });
});
