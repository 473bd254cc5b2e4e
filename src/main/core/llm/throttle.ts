// Runs `fn` at most once per interval however often `schedule` is called, so a fast
// stream costs one UI event per frame and one database write per second.
// `leading: false` makes the first run wait a whole interval too.
export function createThrottle(fn: () => void, intervalMs: number, options: { leading?: boolean } = {}) {
  let timer: NodeJS.Timeout | null = null;
  let last = options.leading === false ? Date.now() : -Infinity;
  const run = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    last = Date.now();
    fn();
  };
  return {
    schedule(): void {
      const wait = last + intervalMs - Date.now();
      // Due now: run here rather than by a timer. A stream whose chunks are already
      // buffered is read in one run of microtasks, and no timer fires until it ends: the
      // page would get the whole burst at once, late.
      if (wait <= 0) return run();
      timer ??= setTimeout(run, wait);
    },
    cancel(): void {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
