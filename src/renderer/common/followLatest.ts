// The state of a "load, then follow the event" view. An answer counts only while it is the
// newest word: one that arrives after the view moved on (another conversation was opened,
// another load started) or after an event already carried a newer state is dropped, so a
// slow answer never overwrites what is on screen.
export interface Follower<T> {
  /** Starts a load; its answer is applied only if nothing newer came first. */
  load(answer: Promise<T>): void;
  /** A pushed state: always the newest. */
  push(value: T): void;
  /** The view is gone or changed its key: every answer still in flight is dropped. */
  drop(): void;
}

export function followLatest<T>(apply: (value: T) => void): Follower<T> {
  let generation = 0;
  return {
    load(answer) {
      const mine = ++generation;
      answer.then(
        (value) => {
          if (mine === generation) apply(value);
        },
        () => undefined,
      );
    },
    push(value) {
      generation++;
      apply(value);
    },
    drop() {
      generation++;
    },
  };
}
