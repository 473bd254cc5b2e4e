// The `fetch` the SDK uses for the agent loop: the edge where the wire quirks that an
// event reader cannot see are handled, without a second HTTP client.
// - Idle timeout on bytes, not events: SSE comments (`: keep-alive` while a model thinks
//   for minutes, `: OPENROUTER PROCESSING`) never become events, but they do prove the
//   server is alive. The timer runs only while a read waits on the server.
// - A JSON body (a whole chat.completion) answered to a `stream: true` request (sglang)
//   becomes the equivalent event stream, so it reads as the complete reply.
// `[DONE]` is seen by the event reader (streamTurn.ts).
import type { ChatCompletion } from 'openai/resources/chat/completions';

/** The server sent nothing for `idleMs` in the middle of a streamed body. */
export class StreamIdleError extends Error {
  constructor(readonly idleMs: number) {
    super(`No data for ${idleMs} ms`);
    this.name = 'StreamIdleError';
  }
}

export interface StreamFetchOptions {
  idleTimeoutMs: number;
  fetch?: typeof fetch;
}

export function createStreamFetch(options: StreamFetchOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok || !response.body || !isStreamRequest(init)) return response;
    // Readers of the body (streamTurn, the SDK's own) go through `getReader()`. A reader of
    // our own sees every read without a second web stream in between (its pull, queue and
    // read requests per chunk were a large share of a stream of tiny deltas).
    Object.defineProperty(response, 'body', {
      value: watchBody(response.body, options.idleTimeoutMs),
      configurable: true,
    });
    return response;
  };
}

/** The SDK serializes the body with JSON.stringify, so a streaming request has this key. */
function isStreamRequest(init: RequestInit | undefined): boolean {
  return typeof init?.body === 'string' && init.body.includes('"stream":true');
}

type Read = ReadableStreamReadResult<Uint8Array>;

/** The parts of a body stream the SDK uses: a reader, cancel, and async iteration. */
interface WatchedBody extends AsyncIterable<Uint8Array> {
  getReader(): { read(): Promise<Read>; cancel(reason?: unknown): Promise<void>; releaseLock(): void };
  cancel(reason?: unknown): Promise<void>;
}

function watchBody(body: ReadableStream<Uint8Array>, idleMs: number): WatchedBody {
  const reader = body.getReader();
  let started = false;

  // One idle timer for the whole body, re-armed by each read (a timer and a promise per
  // read were a measurable share of a stream of tiny deltas). It fires only while a read
  // waits: between reads the consumer, not the server, is the one taking its time.
  let reading = false;
  let idled: StreamIdleError | null = null;
  let timer: NodeJS.Timeout | null = null;
  const onIdle = () => {
    if (!reading) return;
    idled = new StreamIdleError(idleMs);
    void reader.cancel(idled).catch(() => undefined);
  };
  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  /** One read from the server, failing if it stays silent for `idleMs`. */
  async function readServer(): Promise<Read> {
    if (timer) timer.refresh();
    else timer = setTimeout(onIdle, idleMs);
    reading = true;
    try {
      const next = await reader.read();
      if (idled) throw idled;
      return next;
    } finally {
      reading = false;
    }
  }

  /** Reads a body that opened with `{` to its end and turns it into events. */
  async function jsonAsEvents(first: Uint8Array): Promise<Uint8Array> {
    const parts = [first];
    for (;;) {
      const next = await readServer();
      if (next.done) break;
      parts.push(next.value);
    }
    return new TextEncoder().encode(completionAsEvents(Buffer.concat(parts).toString('utf8')));
  }

  let finished = false;
  async function read(): Promise<Read> {
    if (finished) return { done: true, value: undefined };
    try {
      const next = await readServer();
      if (next.done) {
        finished = true;
        stopTimer();
        return next;
      }
      if (!started) {
        const text = Buffer.from(next.value).toString('utf8').trimStart();
        // Whitespace only so far is passed on (blank lines mean nothing); the next read decides.
        started = text.length > 0;
        if (text.startsWith('{')) {
          const events = await jsonAsEvents(next.value);
          finished = true;
          stopTimer();
          return { done: false, value: events };
        }
      }
      return next;
    } catch (error) {
      finished = true;
      stopTimer();
      throw error;
    }
  }

  const cancel = (reason?: unknown) => {
    finished = true;
    stopTimer();
    return reader.cancel(reason);
  };
  const ours = { read, cancel, releaseLock: () => undefined };
  return {
    getReader: () => ours,
    cancel,
    async *[Symbol.asyncIterator]() {
      for (let next = await read(); !next.done; next = await read()) yield next.value;
    },
  };
}

/** A chat.completion (or an error object) as the event stream it would have been. */
export function completionAsEvents(text: string): string {
  let body: Partial<ChatCompletion> & { error?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    const start = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    return event({ error: { message: `The server sent a reply that is neither an event stream nor JSON: ${start}` } });
  }
  if (body.error || !Array.isArray(body.choices)) {
    return event(
      body.error ? { error: body.error } : { error: { message: 'The server sent JSON without any choices.' } },
    );
  }
  const { choices, usage, ...rest } = body;
  const chunk = {
    ...rest,
    object: 'chat.completion.chunk',
    choices: choices.map((choice) => {
      const { tool_calls: calls, ...message } = choice.message ?? {};
      return {
        index: choice.index ?? 0,
        finish_reason: choice.finish_reason ?? 'stop',
        delta: {
          ...message,
          ...(calls?.length ? { tool_calls: calls.map((call, index) => ({ index, ...call })) } : {}),
        },
      };
    }),
    ...(usage ? { usage } : {}),
  };
  return `${event(chunk)}data: [DONE]\n\n`;
}

const event = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
