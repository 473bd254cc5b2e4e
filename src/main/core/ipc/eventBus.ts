// Pushes contract events to every subscriber (Electron windows, WebSocket clients).
// With `check` on (tests, or STEPWISE_CHECK_EVENTS=1) every payload is parsed against its
// schema on the way out, so a bug shows up here, not in the renderer — and a payload the
// parse would change (an unknown key stripped, a default filled in) throws too, so what
// the tests pass is exactly what an unchecked bus sends. Unchecked is for users: parsing
// a 50-task list on every change cost more than the change's own SQLite writes.
import { Emitter, type Disposable, type DisposableStore } from '../../../shared/event';
import { events, type EventName, type EventPayload } from '../../../shared/ipc';

export type EventListener = (event: EventName, payload: unknown) => void;

export interface EventBusOptions {
  /** Parse outgoing payloads against the contract (default: on). */
  check?: boolean;
}

/** Tests run with NODE_ENV=test (vitest sets it; e2e hosts inherit it); anyone may ask with STEPWISE_CHECK_EVENTS=1. */
export function checkEventsFrom(env: NodeJS.ProcessEnv): boolean {
  return env.NODE_ENV === 'test' || env.STEPWISE_CHECK_EVENTS === '1';
}

/** A listener of one event, typed from the contract (VS Code's `Event<T>` shape). */
export type Listener<E extends EventName> = (payload: EventPayload<E>) => void;

export function createEventBus(options: EventBusOptions = {}) {
  const check = options.check ?? true;
  const failed = (event: string) => (error: unknown) =>
    console.error(`[stepwise] event listener failed for ${event}:`, error);
  // Transports forward every event; core modules listen to the ones they need, typed.
  const every = new Emitter<{ event: EventName; payload: unknown }>();
  const typed = new Map<EventName, Emitter<never>>();
  let disposed = false;
  function emitterOf<E extends EventName>(event: E): Emitter<EventPayload<E>> {
    let emitter = typed.get(event) as unknown as Emitter<EventPayload<E>> | undefined;
    if (!emitter) {
      emitter = new Emitter<EventPayload<E>>({ onListenerError: failed(event) });
      if (disposed) emitter.dispose();
      typed.set(event, emitter as unknown as Emitter<never>);
    }
    return emitter;
  }
  return {
    emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
      if (check) checked(event, payload);
      (typed.get(event) as unknown as Emitter<EventPayload<E>> | undefined)?.fire(payload);
      every.fire({ event, payload });
    },
    /**
     * Every event, untyped: only for the transports, which forward payloads as they are
     * (lint refuses it in core: a module follows its events with `on`).
     */
    subscribe(listener: EventListener, store?: DisposableStore): Disposable {
      return every.event(({ event, payload }) => {
        try {
          listener(event, payload);
        } catch (error) {
          failed(event)(error);
        }
      }, store);
    },
    /** One event with its payload typed from the contract; pass the module's store to have it released. */
    on<E extends EventName>(event: E, listener: Listener<E>, store?: DisposableStore): Disposable {
      return emitterOf(event).event(listener, store);
    },
    /** Releases every listener (the core's last step on close). */
    dispose(): void {
      disposed = true;
      every.dispose();
      for (const emitter of typed.values()) emitter.dispose();
    },
  };
}

function checked(event: EventName, payload: unknown): void {
  const parsed: unknown = events[event].parse(payload);
  if (canonical(parsed) !== canonical(payload)) {
    throw new Error(
      `${event} payload has fields outside its schema (or relies on a default): ${canonical(payload).slice(0, 300)}`,
    );
  }
}

/** JSON with object keys sorted: what reaches a WebSocket client, independent of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

export type EventBus = ReturnType<typeof createEventBus>;
