// Pushes contract events to every subscriber (Electron windows, WebSocket clients).
// Payloads are validated on the way out, so a bug shows up here, not in the renderer.
import { events, type EventName, type EventPayload } from '../../../shared/ipc';

export type EventListener = (event: EventName, payload: unknown) => void;

export function createEventBus() {
  const listeners = new Set<EventListener>();
  return {
    emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
      const checked = events[event].parse(payload);
      for (const listener of listeners) {
        try {
          listener(event, checked);
        } catch (error) {
          console.error(`[stepwise] event listener failed for ${event}:`, error);
        }
      }
    },
    subscribe(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
