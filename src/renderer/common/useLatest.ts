// Stable functions over changing values, for handlers passed to memoized children: the
// child keeps its props (so it skips re-rendering) and still acts on what is current.
import { useCallback, useLayoutEffect, useRef } from 'react';

/** A getter of `value` as of the last commit; the same function for the component's life. */
export function useLatestGetter<T>(value: T): () => T {
  const ref = useRef(value);
  // Written after commit, never during render: a render that React discards changes nothing.
  useLayoutEffect(() => {
    ref.current = value;
  });
  return useCallback(() => ref.current, []);
}

/** `handler` as a stable function that always calls the handler of the last commit. */
export function useStableHandler<A extends unknown[], R>(handler: (...args: A) => R): (...args: A) => R {
  const latest = useLatestGetter(handler);
  return useCallback((...args: A) => latest()(...args), [latest]);
}
