// What a long job does to the host's event loop, measured while it runs: the longest gap
// between ticks of a 5 ms timer (wall, the machine's load included), the most CPU time the
// main thread spent between two turns of its event loop (the job's own hold, whatever the
// load), and the slowest answer to a small call asked every 10 ms.

export interface LoopProbe<T> {
  value: T;
  took: number;
  held: number;
  stretch: number;
  slowest: number;
  pings: number;
}

const cpu = () => {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
};
const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));

export async function probeWhile<T>(run: () => Promise<T>, ping: () => Promise<unknown>): Promise<LoopProbe<T>> {
  let held = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const at = performance.now();
    held = Math.max(held, at - last);
    last = at;
  }, 5);
  let stretch = 0;
  let lastCpu = cpu();
  let running = true;
  const turn = () => {
    const now = cpu();
    stretch = Math.max(stretch, now - lastCpu);
    lastCpu = now;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  let slowest = 0;
  let pings = 0;
  const pinging = (async () => {
    while (running) {
      // From asking to the answer, the wait for the event loop's next turn included.
      const started = performance.now();
      await yieldTurn();
      await ping();
      slowest = Math.max(slowest, performance.now() - started);
      pings++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const t0 = performance.now();
  try {
    const value = await run();
    return { value, took: performance.now() - t0, held, stretch, slowest, pings };
  } finally {
    running = false;
    await pinging;
    clearInterval(probe);
  }
}
