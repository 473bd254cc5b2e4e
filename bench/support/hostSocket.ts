// A WebSocket client of a browser host process (`tests/e2e/support/app.ts`'s
// startHostProcess): contract calls as the page makes them, answered or failed.
import WebSocket from 'ws';

export interface HostSocket {
  call(method: string, params: unknown): Promise<unknown>;
  close(): void;
}

export function openHostSocket(host: { port: number; token: string }): Promise<HostSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
    headers: { Origin: `http://127.0.0.1:${host.port}` },
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = frame.id === undefined ? undefined : waiting.get(frame.id);
    if (!waiter) return; // a pushed event
    waiting.delete(frame.id!);
    if (frame.error) waiter.reject(new Error(frame.error.message));
    else waiter.resolve(frame.result);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        call(method, params) {
          const id = nextId++;
          return new Promise((done, fail) => {
            waiting.set(id, { resolve: done, reject: fail });
            socket.send(JSON.stringify({ id, method, params }));
          });
        },
        close: () => socket.close(),
      }),
    );
  });
}
