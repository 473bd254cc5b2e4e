// What the first send after a start paid and no later send does (issue 39): V8 compiling
// the openai SDK's client (it builds every resource class when constructed), the
// tokenizer's encoder and the send call's zod schemas on first use, the connection
// settings' schemas, the session's first commit (conversations/writeWarmUp.ts), the
// request of the conversation that commit was in (built, not sent: turnRequest.ts, with the
// history's pages read), and the first request: Node's fetch compiles its whole path
// (agent, pool, connect, body) on its first use. Done once in idle time after start-up, a
// step per macrotask, so the first send costs what a warm one does. The request goes to a
// server of its own on the loopback address, never to a provider; the provider's
// connection itself still opens at the first send.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { calls } from '../../../shared/ipc';
import { createStreamFetch } from './streamFetch';

/** After the tokenizer's own warm-up (300 ms), when start-up's work is done. */
const AFTER_MS = 1_000;

/** Words, Markdown, code and numbers: the encoder's paths a history takes. */
const SAMPLE =
  'Warm-up: the **widget-42** config had 3 issues; `check(7)` reports what changed. ' +
  'See [the notes](https://example.com/a?b=1). Ünïcödé, 漢字, emoji 🙂 and\n```ts\nconst x = 1;\n```';

/** A streamed reply of one event, as a chat completions server sends it. */
const REPLY =
  'data: {"id":"warm-up","object":"chat.completion.chunk","created":0,"model":"warm-up",' +
  '"choices":[{"index":0,"delta":{"role":"assistant","content":"OK"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

export interface SendWarmUpSteps {
  /** Counts a text's tokens (the tokenizer's encoder). */
  count?: (text: string) => unknown;
  /** The first commit of the session, leaving nothing changed; returns the conversation it was in. */
  write?: () => string | null;
  /** Builds the request a send in that conversation would make, without sending it. */
  turn?: (conversationId: string) => unknown;
  /** Reads the connection settings as a send does (providers). */
  connection?: () => unknown;
  /** A request along the send's path (loopbackRequest). */
  request?: (signal: AbortSignal) => Promise<void>;
  /** Called once every step has run, or failed. */
  done?: () => void;
}

/** One streamed chat request through the SDK and the agent loop's fetch, to a server of its own. */
export async function loopbackRequest(signal: AbortSignal): Promise<void> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(REPLY));
  });
  server.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    const client = new OpenAI({
      apiKey: 'warm-up',
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 0,
      fetch: createStreamFetch({ idleTimeoutMs: 5_000 }),
    });
    const response = await client.chat.completions
      .create({ model: 'warm-up', messages: [{ role: 'user', content: SAMPLE }], stream: true }, { signal })
      .asResponse();
    // The agent loop's fetch hands out the body through its own reader, as the loop reads it.
    const reader = response.body!.getReader();
    while (!(await reader.read()).done);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export function warmUpSend(more: SendWarmUpSteps, afterMs = AFTER_MS): () => void {
  const aborted = new AbortController();
  let written: string | null = null;
  const steps: (() => unknown)[] = [
    ...(more.count ? [() => more.count!(SAMPLE)] : []),
    () => calls['messages:send'].request.safeParse({ conversationId: 'warm-up', content: SAMPLE }),
    () => calls['messages:send'].response.safeParse({ id: 0, role: 'user', content: SAMPLE }),
    ...(more.connection ? [more.connection] : []),
    ...(more.write ? [() => (written = more.write!())] : []),
    ...(more.turn ? [() => written !== null && more.turn!(written)] : []),
    ...(more.request ? [() => more.request!(aborted.signal)] : []),
  ];
  // Each step in a macrotask of its own, by an unref'd timer: an unref'd setImmediate does
  // not wake a loop that waits for I/O, so at idle its step ran only at the next I/O (the
  // first send's, which it was meant to precede).
  let step: NodeJS.Timeout | null = null;
  const schedule = () => {
    if (aborted.signal.aborted) return;
    if (steps.length) step = setTimeout(next, 0).unref();
    else more.done?.();
  };
  // A warm-up that fails (the database busy, no loopback) only leaves that part cold.
  const next = () => {
    step = null;
    let result: unknown;
    try {
      result = steps.shift()?.();
    } catch {
      result = undefined;
    }
    if (result instanceof Promise) result.then(schedule, schedule);
    else schedule();
  };
  const timer = setTimeout(next, afterMs).unref();
  return () => {
    aborted.abort();
    clearTimeout(timer);
    if (step) clearTimeout(step);
  };
}
