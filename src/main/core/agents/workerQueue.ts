// Runs at most `limit()` workers at once; the rest wait first-in, first-out.
export interface WorkerQueue {
  /** Starts the job now if a slot is free, otherwise queues it. */
  submit(id: string, run: () => Promise<void>): 'started' | 'queued';
  /** Removes queued jobs (not running ones) and returns their ids. */
  dropQueued(): string[];
  running(): string[];
  queued(): string[];
  /** Resolves when nothing runs and nothing waits. */
  idle(): Promise<void>;
}

export function createWorkerQueue(limit: () => number): WorkerQueue {
  const active = new Set<string>();
  const waiting: Array<{ id: string; run: () => Promise<void> }> = [];
  let idleWaiters: Array<() => void> = [];

  function settle() {
    if (active.size === 0 && waiting.length === 0) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    }
  }

  function start(id: string, run: () => Promise<void>) {
    active.add(id);
    void run()
      .catch(() => {
        // The job reports its own failure; the queue only frees the slot.
      })
      .finally(() => {
        active.delete(id);
        pump();
        settle();
      });
  }

  function pump() {
    while (active.size < Math.max(1, limit()) && waiting.length) {
      const next = waiting.shift()!;
      start(next.id, next.run);
    }
  }

  return {
    submit(id, run) {
      if (active.size < Math.max(1, limit())) {
        start(id, run);
        return 'started';
      }
      waiting.push({ id, run });
      return 'queued';
    },
    dropQueued() {
      const ids = waiting.map((w) => w.id);
      waiting.length = 0;
      settle();
      return ids;
    },
    running: () => [...active],
    queued: () => waiting.map((w) => w.id),
    idle() {
      if (active.size === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
