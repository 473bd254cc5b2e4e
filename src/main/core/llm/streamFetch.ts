// The `fetch` the SDK uses for the agent loop: the edge where the wire quirks that the
// SDK's SSE parser cannot see are handled, without a second HTTP client.
// - Idle timeout on bytes, not events: SSE comments (`: keep-alive` while a model thinks
//   for minutes, `: OPENROUTER PROCESSING`) never reach the SDK's consumer, but they do
//   prove the server is alive. The timer runs only while a read waits on the server.
// - `data: [DONE]` is remembered, so a stream whose chunks all have `finish_reason: null`
//   but that ends with `[DONE]` is a normal end, not a dropped connection.
// - A JSON body (a whole chat.completion) answered to a `stream: true` request (sglang)
//   becomes the equivalent event stream, so the SDK parses it as the complete reply.
import type { ChatCompletion } from 'openai/resources/chat/completions';

export interface WireFacts {
  /** `data: [DONE]` arrived. */
  readonly sawDone: boolean;
  /** The body was a JSON reply turned into an event stream. */
  readonly fromJson: boolean;
}

const facts = new WeakMap<Response, WireFacts>();

/** What the wire showed for a response this fetch returned (undefined for others). */
export function wireFacts(response: Response | undefined): WireFacts | undefined {
  return response && facts.get(response);
}

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

const DONE_LINE = /(?:^|[\r\n])data: ?\[DONE\][ \t]*(?:\r?\n|$)/;
/** Bytes kept before the newest read: enough for `data: [DONE]` cut across reads. */
const DONE_SPAN = 64;

export function createStreamFetch(options: StreamFetchOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok || !response.body || !isStreamRequest(init)) return response;
    const watched = watchBody(response.body, options.idleTimeoutMs);
    // The SDK reads the body through `getReader()`. Handing it a reader of our own sees
    // every read without a second web stream in between (its pull, queue and read
    // requests per chunk were most of what the host added to a stream of tiny deltas).
    Object.defineProperty(response, 'body', { value: watched.body, configurable: true });
    facts.set(response, watched.facts);
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

function watchBody(body: ReadableStream<Uint8Array>, idleMs: number): { body: WatchedBody; facts: WireFacts } {
  const reader = body.getReader();
  let started = false;
  let fromJson = false;
  /** The newest reads, as many as cover DONE_SPAN bytes before the last one. */
  const recent: Uint8Array[] = [];
  let recentBytes = 0;

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

  function remember(bytes: Uint8Array): void {
    recent.push(bytes);
    recentBytes += bytes.length;
    while (recent.length > 1 && recentBytes - recent[0].length >= DONE_SPAN + bytes.length) recentBytes -= recent.shift()!.length;
  }

  /** Reads a body that opened with `{` to its end and turns it into events. */
  async function jsonAsEvents(first: Uint8Array): Promise<Uint8Array> {
    const parts = [first];
    for (;;) {
      const next = await readServer();
      if (next.done) break;
      parts.push(next.value);
    }
    fromJson = true;
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
      remember(next.value);
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
  const watched: WatchedBody = {
    getReader: () => ours,
    cancel,
    async *[Symbol.asyncIterator]() {
      for (let next = await read(); !next.done; next = await read()) yield next.value;
    },
  };
  return {
    body: watched,
    facts: {
      // The SDK stops reading at `[DONE]`, so when it arrived it is in the last reads:
      // they are looked at once, when asked, instead of decoding every chunk.
      get sawDone() {
        return fromJson || DONE_LINE.test(`\n${new TextDecoder().decode(Buffer.concat(recent))}`);
      },
      get fromJson() {
        return fromJson;
      },
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
    return event(body.error ? { error: body.error } : { error: { message: 'The server sent JSON without any choices.' } });
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
