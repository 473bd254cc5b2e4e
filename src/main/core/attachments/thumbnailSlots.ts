// Who may make a thumbnail now: at most one worker per core, and the memory their decodes
// need together within a budget. Ten large images attached at once would otherwise start ten
// workers that decode at once; here they wait their turn, first come first served.

export interface Slots {
  /** Resolves when `bytes` of memory and a worker may be used; call the release it gives once done. */
  acquire(bytes: number): Promise<() => void>;
  /** Workers running and waiting now (tests). */
  state(): { running: number; waiting: number; bytes: number };
}

export function createSlots(limits: { workers: number; bytes: number }): Slots {
  let running = 0;
  let used = 0;
  const waiting: Array<{ bytes: number; start: () => void }> = [];
  const fits = (bytes: number) => running < limits.workers && (running === 0 || used + bytes <= limits.bytes);
  function next() {
    // In order: a large image is not passed over for ever by small ones behind it.
    while (waiting.length && fits(waiting[0].bytes)) waiting.shift()!.start();
  }
  return {
    acquire(bytes) {
      return new Promise((resolve) => {
        const start = () => {
          running++;
          used += bytes;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            running--;
            used -= bytes;
            next();
          });
        };
        waiting.push({ bytes, start });
        next();
      });
    },
    state: () => ({ running, waiting: waiting.length, bytes: used }),
  };
}
