// Share calls run one per turn of the event loop. A client's burst (the SDK sends its calls
// concurrently, and a greedy client sends many) arrives in one poll of the loop: run as it
// arrived, the whole burst ran back to back and the app's own requests waited behind all
// of it (docs/performance.md, "Task sharing under load"). With a turn between calls, the
// app's requests are answered between any two of them.

/** A gate each call awaits before it runs; calls pass in order, one per turn. */
export function oneCallPerTurn(): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return () => {
    const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    last = turn;
    return turn;
  };
}
