// The browser host's transport: the same StepwiseApi over a WebSocket. The token comes
// from the page address `npm run serve` printed.
// Each start of the host has a new token (and, by default, a new port), so a tab whose host
// was restarted can never reconnect: after a connection that never opened, the page asks
// its own address (HEAD) whether the token is still good; a 401, or TRIES attempts in a
// row that never opened, mean the host this tab belonged to is gone, and it stops trying.
import type { CallName, EventName, IpcResult, StepwiseApi } from '../../shared/ipc';
import { resultOf, WsServerFrame, type WsRequestFrame } from '../../shared/wsFrames';

type Pending = (result: IpcResult<unknown>) => void;
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'restarted';

/** Attempts in a row that never open before the tab gives up (250 ms … 4 s apart: about 8 s). */
const TRIES = 5;

/** Whether the page's own address still answers (false: 401, the token is not this host's). */
async function tokenStillGood(location: Location): Promise<boolean> {
  try {
    const response = await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
    return response.status !== 401;
  } catch {
    return true; // nothing listens (yet): counted as a try
  }
}

export function createWsApi(location: Location, onState: (state: ConnectionState) => void): StepwiseApi {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: WebSocket;
  let retryMs = 250;
  let failed = 0;

  function connect() {
    onState('connecting');
    let opened = false;
    socket = new WebSocket(url);
    socket.onopen = () => {
      opened = true;
      failed = 0;
      retryMs = 250;
      onState('open');
      for (const frame of queue.splice(0)) socket.send(frame);
    };
    socket.onmessage = (message) => {
      const parsed = WsServerFrame.safeParse(JSON.parse(String(message.data)));
      if (!parsed.success) {
        console.error('[stepwise] a frame from the host this page cannot read:', parsed.error.message);
        return;
      }
      const frame = parsed.data;
      if ('event' in frame) {
        for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
        return;
      }
      const resolve = pending.get(frame.id);
      if (!resolve) return;
      pending.delete(frame.id);
      resolve(resultOf(frame));
    };
    socket.onclose = () => {
      onState('closed');
      // Calls in flight will never be answered by this socket: fail them clearly.
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve({ ok: false, error: { code: 'unavailable', message: 'Lost the connection to Stepwise. Retrying…' } });
      }
      if (!opened) failed++;
      void (failed ? tokenStillGood(location) : Promise.resolve(true)).then((good) => {
        if (!good || failed >= TRIES) {
          onState('restarted');
          return;
        }
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 5000);
      });
    };
  }
  connect();

  return {
    invoke(name: CallName, params: unknown) {
      const id = nextId++;
      const frame = JSON.stringify({ id, method: name, params } satisfies WsRequestFrame);
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
