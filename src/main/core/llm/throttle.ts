// Runs `fn` at most once per interval however often `schedule` is called, so a fast
// stream costs one UI event per frame and one database write per second.
export function createThrottle(fn: () => void, intervalMs: number) {
  let timer: NodeJS.Timeout | null = null;
  let last = 0;
  const run = () => {
    timer = null;
    last = Date.now();
    fn();
  };
  return {
    schedule(): void {
      if (timer) return;
      timer = setTimeout(run, Math.max(0, last + intervalMs - Date.now()));
    },
    cancel(): void {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
