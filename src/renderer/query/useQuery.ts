// React access to the query cache: one cache per API, read with useSyncExternalStore.
// A feature describes its query once (`followedCall`, or a `Query` of its own) and every
// view reads it with `useQuery`.
import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { CallName, CallRequest, CallResponse, EventName, EventPayload, StepwiseApi } from '../../shared/ipc';
import { call, useApi } from '../api/apiContext';
import { createQueryCache, type QueryCache, type QueryControl, type QuerySource } from './queryCache';

/** A query of the API: its key names the state (call and params), the rest says how to get and follow it. */
export interface Query<T> {
  key: string;
  /** `current`: the state shown when the load starts (a reload may ask for as much as is shown). */
  load(api: StepwiseApi, current: T | undefined): Promise<T>;
  /** Merges an answer with changes pushed while it was in flight (else such an answer is dropped). */
  merge?(answer: T, current: T): T;
  follow(api: StepwiseApi, control: QueryControl<T>): () => void;
}

/**
 * When a view renders a change it was told of: at once by default, or paced (see
 * `pace.ts`). It gets the view's listener and the state now, and returns the listener to
 * register and what stops its timers.
 */
export type Pace<T> = (listener: () => void, state: () => T | undefined) => { listener: () => void; dispose(): void };

const caches = new WeakMap<StepwiseApi, QueryCache>();

export function queryCacheOf(api: StepwiseApi): QueryCache {
  let cache = caches.get(api);
  if (!cache) {
    cache = createQueryCache();
    caches.set(api, cache);
  }
  return cache;
}

/**
 * The most common query: a call's answer, then the event that carries the new state.
 * `pick` returns the new state when the event is about this view, else undefined; it gets
 * the state shown now for events that carry a change rather than the whole state.
 */
export function followedCall<N extends CallName, E extends EventName>(spec: {
  call: N;
  params: CallRequest<N>;
  event: E;
  pick: (payload: EventPayload<E>, current: CallResponse<N> | undefined) => CallResponse<N> | undefined;
}): Query<CallResponse<N>> {
  return {
    key: `${spec.call} ${JSON.stringify(spec.params)}`,
    load: (api) => call(api, spec.call, spec.params),
    follow: (api, control) =>
      api.on(spec.event, (payload) => {
        const next = spec.pick(payload, control.current());
        if (next !== undefined) control.set(next);
      }),
  };
}

/**
 * The state of `query` (or `initial` until its first answer), and a setter for an answer
 * the page got itself. `select` reads one part of it: the view renders only when that part
 * changes, so it must return a value (or a reference that stays the same while unchanged).
 */
export function useQuery<T, I, S = T>(
  query: Query<T>,
  initial: I,
  select?: (state: T) => S,
  /** A constant (module-level): a new one each render would subscribe again. */
  pace?: Pace<T>,
): [S | I, (value: T) => void] {
  const api = useApi();
  const cache = queryCacheOf(api);
  // The query of the last render: its key decides the entry, its functions are the same for a key.
  const latest = useRef(query);
  latest.current = query;
  const selectRef = useRef(select);
  selectRef.current = select;
  const { key } = query;
  const subscribe = useCallback(
    (listener: () => void) => {
      const paced = pace ? pace(listener, () => cache.peek<T>(key)) : { listener, dispose: () => {} };
      const leave = cache.subscribe<T>(
        key,
        (): QuerySource<T> => {
          const q = latest.current;
          return {
            load: (current) => q.load(api, current),
            merge: q.merge && ((answer, current) => q.merge!(answer, current)),
            follow: (control) => q.follow(api, control),
          };
        },
        paced.listener,
      );
      return () => {
        leave();
        paced.dispose();
      };
    },
    [api, cache, key, pace],
  );
  const snapshot = useCallback(() => {
    const state = cache.peek<T>(key);
    if (state === undefined) return initial;
    return selectRef.current ? selectRef.current(state) : (state as unknown as S);
    // `initial` is a constant of the caller ([] or null); a new [] each render must not re-subscribe.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cache, key]);
  const value = useSyncExternalStore(subscribe, snapshot);
  const set = useCallback((next: T) => cache.set(key, next), [cache, key]);
  return [value, set];
}
