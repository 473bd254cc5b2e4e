// One event primitive with disposal, after VS Code's `base/common/event.ts` and
// `lifecycle.ts`: an `Emitter<T>` owns its listeners, `Event<T>` is how others subscribe,
// and every subscription is a `Disposable` that a module's `DisposableStore` releases.
// Listeners still alive across all emitters are counted, so a test can prove that a
// closed core leaves none behind.

export interface Disposable {
  dispose(): void;
}

/** Subscribe with a listener; dispose the result to unsubscribe. Pass a store to have it do so. */
export type Event<T> = (listener: (value: T) => void, store?: DisposableStore) => Disposable;

let live = 0;
let orphaned = 0;

/** Listeners subscribed to any emitter and not yet disposed (a leak check for tests). */
export function liveListeners(): number {
  return live;
}

/**
 * Listeners that were still subscribed when their emitter was disposed: their subscriber
 * never released them itself (a module that subscribes without disposing; a leak check).
 */
export function orphanedListeners(): number {
  return orphaned;
}

export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/** Disposables released together, last added first (the reverse of how they were built). */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Keeps `item` to dispose with the store; a store already disposed disposes it at once. */
  add<D extends Disposable>(item: D): D {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
  }
}

export interface EmitterOptions {
  /** Called when a listener throws; the other listeners still run. Default: console.error. */
  onListenerError?: (error: unknown) => void;
}

export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();
  private disposed = false;
  private readonly onListenerError: (error: unknown) => void;

  constructor(options: EmitterOptions = {}) {
    this.onListenerError = options.onListenerError ?? ((error) => console.error('[stepwise] listener failed:', error));
  }

  /** The subscribe side, to hand out without the power to fire. */
  readonly event: Event<T> = (listener, store) => {
    if (this.disposed) return toDisposable(() => {});
    // Each subscription is its own entry, so one function subscribed twice fires twice.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    live++;
    const subscription = toDisposable(() => {
      if (this.listeners.delete(entry)) live--;
    });
    return store ? store.add(subscription) : subscription;
  };

  /** Calls every listener in subscription order; one that throws does not stop the rest. */
  fire(value: T): void {
    // A snapshot: a listener added while firing waits for the next value; one disposed
    // while firing (by an earlier listener) is not called.
    for (const listener of Array.from(this.listeners)) {
      if (!this.listeners.has(listener)) continue;
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    live -= this.listeners.size;
    orphaned += this.listeners.size;
    this.listeners.clear();
  }
}
