// The browser host's transport: the same StepwiseApi over a WebSocket. The token comes
// from the page address `npm run serve` printed.
import type { CallName, EventName, IpcResult, StepwiseApi } from '../../shared/ipc';

type Pending = (result: IpcResult<unknown>) => void;
export type ConnectionState = 'connecting' | 'open' | 'closed';

export function createWsApi(location: Location, onState: (state: ConnectionState) => void): StepwiseApi {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: WebSocket;
  let retryMs = 250;

  function connect() {
    onState('connecting');
    socket = new WebSocket(url);
    socket.onopen = () => {
      retryMs = 250;
      onState('open');
      for (const frame of queue.splice(0)) socket.send(frame);
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as
        | { id: number; result?: unknown; error?: { code: string; message: string } }
        | { event: string; payload: unknown };
      if ('event' in frame) {
        for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
        return;
      }
      const resolve = pending.get(frame.id);
      if (!resolve) return;
      pending.delete(frame.id);
      resolve(frame.error ? { ok: false, error: frame.error as never } : { ok: true, value: frame.result });
    };
    socket.onclose = () => {
      onState('closed');
      // Calls in flight will never be answered by this socket: fail them clearly.
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve({ ok: false, error: { code: 'unavailable', message: 'Lost the connection to Stepwise. Retrying…' } });
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  }
  connect();

  return {
    invoke(name: CallName, params: unknown) {
      const id = nextId++;
      const frame = JSON.stringify({ id, method: name, params });
      return new Promise((resolve) => {
        pending.set(id, resolve as Pending);
        if (socket.readyState === WebSocket.OPEN) socket.send(frame);
        else queue.push(frame);
      }) as never;
    },
    on(event: EventName, listener: (payload: never) => void) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
}
