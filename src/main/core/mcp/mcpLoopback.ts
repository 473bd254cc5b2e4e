// The loopback address a sign-in's browser comes back to (RFC 8252: a native app's
// redirect to 127.0.0.1). It listens only while a sign-in waits, answers only the `state`
// it is waiting for, and shows the browser a page saying what happened.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fixed port keeps the registered redirect valid across launches; another is used when it is taken. */
export const PREFERRED_CALLBACK_PORT = 47124;
const CALLBACK_PATH = '/callback';

interface Waiter {
  resolve(code: string): void;
  reject(error: Error): void;
}

/** An authorization server's answer that is not a code. */
export class AuthorizationRefused extends Error {}

function page(title: string, text: string): string {
  const escape = (value: string) =>
    value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family: system-ui, sans-serif; margin: 3rem"><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`;
}

export function createLoopback(options: { preferredPort?: number } = {}) {
  const waiting = new Map<string, Waiter>();
  let server: http.Server | null = null;
  let listening: Promise<string> | null = null;

  function answer(response: http.ServerResponse, status: number, title: string, text: string) {
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    response.end(page(title, text));
  }

  function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      return answer(response, 404, 'Not found', 'Stepwise only listens here for the end of a sign-in.');
    }
    const state = url.searchParams.get('state') ?? '';
    const waiter = waiting.get(state);
    if (!waiter) {
      return answer(
        response,
        400,
        'Sign-in not recognised',
        'Stepwise is not waiting for this sign-in (it finished, was cancelled or timed out). Start it again from Stepwise.',
      );
    }
    waiting.delete(state);
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (code && !error) {
      waiter.resolve(code);
      answer(response, 200, 'Signed in', 'You are signed in. You can close this tab and return to Stepwise.');
    } else {
      const description = url.searchParams.get('error_description');
      const why = error ? `${error}${description ? ` (${description})` : ''}` : 'it sent no authorization code';
      waiter.reject(new AuthorizationRefused(`the authorization server refused the sign-in: ${why}`));
      answer(
        response,
        400,
        'Sign-in failed',
        `The authorization server said: ${why}. Return to Stepwise to try again.`,
      );
    }
    closeIfIdle();
  }

  function listenOn(port: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const candidate = http.createServer(handle);
      candidate.once('error', reject);
      candidate.listen(port, '127.0.0.1', () => {
        candidate.off('error', reject);
        server = candidate;
        resolve(`http://127.0.0.1:${(candidate.address() as AddressInfo).port}${CALLBACK_PATH}`);
      });
    });
  }

  function closeIfIdle() {
    if (waiting.size || !server) return;
    const closing = server;
    server = null;
    listening = null;
    // Connections still answering finish; idle ones close with it.
    closing.close();
  }

  return {
    /** Starts listening (if it is not) and gives the redirect URL. */
    ensure(): Promise<string> {
      listening ??= listenOn(options.preferredPort ?? PREFERRED_CALLBACK_PORT).catch(() => listenOn(0));
      const current = listening;
      return current.catch((error: unknown) => {
        if (listening === current) listening = null;
        throw error;
      });
    },
    /** The code the browser brings back with `state`; rejects on an error answer or when `signal` aborts. */
    wait(state: string, signal: AbortSignal): Promise<string> {
      return new Promise<string>((resolve, reject) => {
        const done = () => {
          signal.removeEventListener('abort', abort);
          waiting.delete(state);
          closeIfIdle();
        };
        const abort = () => {
          done();
          reject(signal.reason instanceof Error ? signal.reason : new Error('The sign-in was cancelled.'));
        };
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        waiting.set(state, {
          resolve: (code) => {
            done();
            resolve(code);
          },
          reject: (error) => {
            done();
            reject(error);
          },
        });
      });
    },
    /** Drops every waiting sign-in and stops listening. */
    close() {
      for (const waiter of waiting.values()) waiter.reject(new Error('Stepwise is closing.'));
      waiting.clear();
      closeIfIdle();
    },
  };
}

export type Loopback = ReturnType<typeof createLoopback>;
