// Long imports on the main thread give way to other calls: `pace()` resolves at once while
// the current slice is young, and after a turn of the event loop (setImmediate, so pending
// socket reads run first) once it has run for `sliceMs`. Work that awaits it between small
// steps never holds the host for much longer than one slice.

export type Pace = () => Promise<void>;

export function createPace(sliceMs = 20): Pace {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    start = performance.now();
  };
}

/** Whether the current slice has run for `sliceMs` (a synchronous loop's cue to stop and await `pace`). */
export function sliceOver(start: number, sliceMs = 20): boolean {
  return performance.now() - start >= sliceMs;
}
