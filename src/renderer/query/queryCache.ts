// The renderer's one way to follow live state: a keyed cache of "load, then follow the
// event" queries. Every view of the same key shares one request and one event
// subscription; the entry (and its subscription) goes when the last view does.
//
// An answer counts only while it is the newest word: one that arrives after an event
// already carried a newer state, after a newer load started, or after the entry was
// dropped (the user switched conversation) is discarded, so a slow answer never
// overwrites what is on screen.

/** What a query's follower may do with its entry. */
export interface QueryControl<T> {
  /** The state shown now, or undefined before the first answer. */
  current(): T | undefined;
  /** A pushed state: always the newest word. */
  set(value: T): void;
  /** Asks again (an event that says "changed" without the new state, or a change before the first answer). */
  reload(): void;
  /** Adds the answer of a further call to the state (see `QueryCache.extend`). */
  extend<A>(request: Promise<A>, add: Add<A, T>): Promise<boolean>;
}

/** The state with a further answer added, or undefined when it changes nothing. */
export type Add<A, T> = (answer: A, current: T | undefined) => T | undefined;

export interface QuerySource<T> {
  /** `current` is the state shown when the load starts: a reload may ask for as much as is shown. */
  load(current: T | undefined): Promise<T>;
  /**
   * An answer that arrives after a pushed change is dropped, unless the source can merge
   * the two (a page of messages read while new ones streamed in).
   */
  merge?(answer: T, current: T): T;
  /** Follows the events that carry this query's new state; returns the unsubscribe. */
  follow(control: QueryControl<T>): () => void;
}

interface Entry<T> {
  value: T | undefined;
  /** Bumped by every change, load and drop: an answer counts only while it is unchanged. */
  generation: number;
  /** Bumped by every load and drop: a further page read before it belongs to an older state. */
  epoch: number;
  listeners: Set<() => void>;
  unfollow: () => void;
  /** Pending removal once the last view left (kept if another view arrives in the same tick). */
  leaving: boolean;
}

export interface QueryCache {
  /** Adds a view of `key`; the first one starts the load and the follow. */
  subscribe<T>(key: string, source: () => QuerySource<T>, listener: () => void): () => void;
  /** The state of `key` now, or undefined (no entry, or no answer yet). */
  peek<T>(key: string): T | undefined;
  /** A state the page got itself (the answer to its own call) is the newest word too. */
  set<T>(key: string, value: T): void;
  /**
   * Adds the answer of a call the view made for more of the state (an older page, a page
   * scrolled into view). Unlike a load it does not replace what changed meanwhile, so it
   * counts unless the entry went or a load started since; resolves whether it counted.
   */
  extend<A, T>(key: string, request: Promise<A>, add: Add<A, T>): Promise<boolean>;
  /** How many keys are followed (tests: no entry outlives its views). */
  size(): number;
}

export function createQueryCache(): QueryCache {
  const entries = new Map<string, Entry<unknown>>();

  function apply<T>(entry: Entry<T>, value: T) {
    entry.value = value;
    for (const listener of entry.listeners) listener();
  }

  function load<T>(key: string, entry: Entry<T>, source: QuerySource<T>) {
    const mine = ++entry.generation;
    const epoch = ++entry.epoch;
    source.load(entry.value).then(
      (value) => {
        if (entries.get(key) !== entry || entry.epoch !== epoch) return;
        if (entry.generation === mine) apply(entry, value);
        else if (source.merge && entry.value !== undefined) {
          entry.generation++;
          apply(entry, source.merge(value, entry.value));
        }
      },
      // A failed load leaves what is shown; the next event or view asks again.
      () => undefined,
    );
  }

  function extend<A, T>(key: string, entry: Entry<T>, request: Promise<A>, add: Add<A, T>): Promise<boolean> {
    const epoch = entry.epoch;
    return request.then(
      (answer) => {
        if (entries.get(key) !== entry || entry.epoch !== epoch) return false;
        const next = add(answer, entry.value);
        if (next === undefined) return false;
        entry.generation++;
        apply(entry, next);
        return true;
      },
      () => false,
    );
  }

  function open<T>(key: string, source: QuerySource<T>): Entry<T> {
    const entry: Entry<T> = {
      value: undefined,
      generation: 0,
      epoch: 0,
      listeners: new Set(),
      unfollow: () => {},
      leaving: false,
    };
    entries.set(key, entry as Entry<unknown>);
    const control: QueryControl<T> = {
      current: () => entry.value,
      set: (value) => {
        if (entries.get(key) !== entry) return;
        entry.generation++;
        apply(entry, value);
      },
      reload: () => {
        if (entries.get(key) === entry) load(key, entry, source);
      },
      extend: (request, add) => extend(key, entry, request, add),
    };
    entry.unfollow = source.follow(control);
    load(key, entry, source);
    return entry;
  }

  return {
    subscribe<T>(key: string, source: () => QuerySource<T>, listener: () => void) {
      const entry = (entries.get(key) as Entry<T> | undefined) ?? open(key, source());
      entry.leaving = false;
      entry.listeners.add(listener);
      return () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size > 0 || entry.leaving) return;
        // After the current tick: a view replaced in the same commit (or React's strict
        // double mount) keeps the entry instead of asking again.
        entry.leaving = true;
        queueMicrotask(() => {
          if (!entry.leaving || entries.get(key) !== entry) return;
          entries.delete(key);
          entry.generation++;
          entry.epoch++;
          entry.unfollow();
        });
      };
    },
    peek: <T>(key: string) => entries.get(key)?.value as T | undefined,
    set(key, value) {
      const entry = entries.get(key);
      if (!entry) return;
      entry.generation++;
      apply(entry, value);
    },
    extend<A, T>(key: string, request: Promise<A>, add: Add<A, T>) {
      const entry = entries.get(key) as Entry<T> | undefined;
      if (!entry)
        return request.then(
          () => false,
          () => false,
        );
      return extend(key, entry, request, add);
    },
    size: () => entries.size,
  };
}
