import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter, liveListeners, orphanedListeners, toDisposable } from '../../src/shared/event';

describe('Emitter and DisposableStore', () => {
  it('delivers to listeners in order until each is disposed', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const a = emitter.event((n) => seen.push(`a${n}`));
    emitter.event((n) => seen.push(`b${n}`));
    emitter.fire(1);
    a.dispose();
    a.dispose();
    emitter.fire(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
    expect(emitter.listenerCount).toBe(1);
    emitter.dispose();
  });

  it('skips a listener disposed while firing, and keeps one added while firing for the next value', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    let second: { dispose(): void } | null = null;
    emitter.event((n) => {
      seen.push(`first${n}`);
      second?.dispose();
      if (n === 1) emitter.event((m) => seen.push(`late${m}`));
    });
    second = emitter.event((n) => seen.push(`second${n}`));
    emitter.fire(1);
    emitter.fire(2);
    expect(seen).toEqual(['first1', 'first2', 'late2']);
    emitter.dispose();
  });

  it('keeps firing the other listeners when one throws, and reports the error', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<string>({ onListenerError: (e) => errors.push(e) });
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error('boom');
    });
    emitter.event((v) => seen.push(v));
    emitter.fire('x');
    expect(seen).toEqual(['x']);
    expect(String(errors[0])).toContain('boom');
    emitter.dispose();
  });

  it('counts live listeners across emitters, and a store releases its own in reverse order', () => {
    const before = liveListeners();
    const store = new DisposableStore();
    const one = new Emitter<void>();
    const two = new Emitter<void>();
    one.event(() => {}, store);
    two.event(() => {}, store);
    const order: string[] = [];
    store.add(toDisposable(() => order.push('first')));
    store.add(toDisposable(() => order.push('second')));
    expect(liveListeners()).toBe(before + 2);
    store.dispose();
    expect(order).toEqual(['second', 'first']);
    expect(liveListeners()).toBe(before);
    expect(one.listenerCount + two.listenerCount).toBe(0);
  });

  it('disposes what is added to a store that is already disposed, and a disposed emitter takes no listener', () => {
    const store = new DisposableStore();
    store.dispose();
    let disposed = false;
    store.add(toDisposable(() => (disposed = true)));
    expect(disposed).toBe(true);
    const emitter = new Emitter<number>();
    emitter.dispose();
    const before = liveListeners();
    emitter.event(() => {});
    expect(liveListeners()).toBe(before);
  });

  it('disposing an emitter releases its listeners from the live count, and counts them as orphaned', () => {
    const before = liveListeners();
    const orphans = orphanedListeners();
    const emitter = new Emitter<number>();
    emitter.event(() => {});
    emitter.event(() => {}).dispose();
    emitter.dispose();
    expect(liveListeners()).toBe(before);
    expect(orphanedListeners()).toBe(orphans + 1);
  });
});
