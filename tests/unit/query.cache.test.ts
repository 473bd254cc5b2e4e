// The renderer's query cache: a slow answer never overwrites a newer state, views of one
// key share one request and one subscription, and nothing outlives its last view.
import { describe, expect, it } from 'vitest';
import { createQueryCache, type QueryControl, type QuerySource } from '../../src/renderer/query/queryCache';

/** A promise the test resolves when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A source whose answers the test hands out one by one, and whose event the test fires. */
function source<T>() {
  const answers: ReturnType<typeof deferred<T>>[] = [];
  const controls = new Set<QueryControl<T>>();
  let follows = 0;
  const make = (): QuerySource<T> => ({
    load() {
      const answer = deferred<T>();
      answers.push(answer);
      return answer.promise;
    },
    follow(control) {
      follows++;
      controls.add(control);
      return () => controls.delete(control);
    },
  });
  return {
    make,
    answers,
    push: (value: T) => controls.forEach((c) => c.set(value)),
    reload: () => controls.forEach((c) => c.reload()),
    get follows() {
      return follows;
    },
    get following() {
      return controls.size;
    },
  };
}

describe('query cache', () => {
  it('shows the answer of the first load', async () => {
    const cache = createQueryCache();
    const s = source<string[]>();
    let renders = 0;
    cache.subscribe('questions A', s.make, () => renders++);
    expect(cache.peek('questions A')).toBeUndefined();
    s.answers[0].resolve(['Which file?']);
    await settled();
    expect(cache.peek('questions A')).toEqual(['Which file?']);
    expect(renders).toBe(1);
  });

  it('keeps a pushed state over an answer that was sent before it', async () => {
    const cache = createQueryCache();
    const s = source<string>();
    cache.subscribe('plan A', s.make, () => {});
    s.push('pushed after the request');
    s.answers[0].resolve('answer from before the push');
    await settled();
    expect(cache.peek('plan A')).toBe('pushed after the request');
  });

  it('drops an older load once a newer one started, whichever answers first', async () => {
    const cache = createQueryCache();
    const s = source<string>();
    cache.subscribe('tasks A', s.make, () => {});
    s.reload();
    expect(s.answers).toHaveLength(2);
    s.answers[1].resolve('second');
    await settled();
    s.answers[0].resolve('first, late');
    await settled();
    expect(cache.peek('tasks A')).toBe('second');
  });

  it('drops the answer for a view the user left while it was in flight', async () => {
    const cache = createQueryCache();
    const s = source<string>();
    const leave = cache.subscribe('workers A', s.make, () => {});
    leave();
    await settled();
    expect(cache.size()).toBe(0);
    // The user comes back: a new entry with its own load; the old answer lands on nothing.
    let renders = 0;
    cache.subscribe('workers A', s.make, () => renders++);
    s.answers[0].resolve('answer for the view that left');
    await settled();
    expect(cache.peek('workers A')).toBeUndefined();
    expect(renders).toBe(0);
    s.answers[1].resolve('answer for this view');
    await settled();
    expect(cache.peek('workers A')).toBe('answer for this view');
  });

  it('shares one load and one subscription between the views of a key, and keeps keys apart', async () => {
    const cache = createQueryCache();
    const s = source<number>();
    const t = source<number>();
    const shown: string[] = [];
    cache.subscribe('counts A', s.make, () => shown.push('row 1'));
    cache.subscribe('counts A', s.make, () => shown.push('row 2'));
    cache.subscribe('counts B', t.make, () => shown.push('other conversation'));
    expect(s.answers).toHaveLength(1);
    expect(s.follows).toBe(1);
    s.answers[0].resolve(3);
    await settled();
    expect(shown).toEqual(['row 1', 'row 2']);
    expect(cache.peek('counts A')).toBe(3);
    expect(cache.peek('counts B')).toBeUndefined();
  });

  it('unsubscribes from the event when the last view goes, not before', async () => {
    const cache = createQueryCache();
    const s = source<number>();
    const first = cache.subscribe('mcp', s.make, () => {});
    const second = cache.subscribe('mcp', s.make, () => {});
    first();
    await settled();
    expect(s.following).toBe(1);
    expect(cache.size()).toBe(1);
    second();
    await settled();
    expect(s.following).toBe(0);
    expect(cache.size()).toBe(0);
  });

  it('keeps the entry when a view is replaced in the same tick (no second request)', async () => {
    const cache = createQueryCache();
    const s = source<number>();
    const old = cache.subscribe('approvals A', s.make, () => {});
    old();
    cache.subscribe('approvals A', s.make, () => {});
    await settled();
    expect(s.answers).toHaveLength(1);
    expect(s.follows).toBe(1);
    expect(cache.size()).toBe(1);
  });

  it('takes a state the page set itself as the newest word', async () => {
    const cache = createQueryCache();
    const s = source<string>();
    cache.subscribe('mcp', s.make, () => {});
    cache.set('mcp', 'answer to the page’s own call');
    s.answers[0].resolve('older load');
    await settled();
    expect(cache.peek('mcp')).toBe('answer to the page’s own call');
  });

  it('keeps what is shown when a load fails, and a later load still counts', async () => {
    const cache = createQueryCache();
    const s = source<string>();
    cache.subscribe('routines', s.make, () => {});
    s.answers[0].resolve('loaded');
    await settled();
    s.reload();
    s.answers[1].reject(new Error('socket closed'));
    await settled();
    expect(cache.peek('routines')).toBe('loaded');
    s.reload();
    s.answers[2].resolve('loaded again');
    await settled();
    expect(cache.peek('routines')).toBe('loaded again');
  });

  it('merges an answer with what was pushed while it was in flight, when the source can', async () => {
    const cache = createQueryCache();
    const s = source<string[]>();
    cache.subscribe(
      'messages A',
      () => ({ ...s.make(), merge: (answer, current) => [...answer, ...current] }),
      () => {},
    );
    s.push(['streamed while the first page loaded']);
    s.answers[0].resolve(['first page']);
    await settled();
    expect(cache.peek('messages A')).toEqual(['first page', 'streamed while the first page loaded']);
  });

  it('gives a reload the state shown, so it can ask for as much as is loaded', async () => {
    const cache = createQueryCache();
    const asked: Array<string[] | undefined> = [];
    let control!: QueryControl<string[]>;
    cache.subscribe<string[]>(
      'pages',
      () => ({
        load: (current) => {
          asked.push(current);
          return Promise.resolve(['page 0', 'page 1']);
        },
        follow: (c) => {
          control = c;
          return () => {};
        },
      }),
      () => {},
    );
    await settled();
    control.reload();
    expect(asked).toEqual([undefined, ['page 0', 'page 1']]);
  });

  it('adds a further page to what changed meanwhile, but not once a load started after it', async () => {
    const cache = createQueryCache();
    const s = source<string[]>();
    cache.subscribe('older pages', s.make, () => {});
    s.answers[0].resolve(['newest']);
    await settled();
    const older = deferred<string>();
    const added = cache.extend<string, string[]>('older pages', older.promise, (page, current) => [
      page,
      ...(current ?? []),
    ]);
    s.push(['newest', 'pushed']);
    older.resolve('older');
    expect(await added).toBe(true);
    expect(cache.peek('older pages')).toEqual(['older', 'newest', 'pushed']);

    const stale = deferred<string>();
    const late = cache.extend<string, string[]>('older pages', stale.promise, (page, current) => [
      page,
      ...(current ?? []),
    ]);
    s.reload();
    stale.resolve('page of the state before the reload');
    expect(await late).toBe(false);
    s.answers[1].resolve(['reloaded']);
    await settled();
    expect(cache.peek('older pages')).toEqual(['reloaded']);
  });
});
