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
  sawDone: boolean;
  /** The body was a JSON reply turned into an event stream. */
  fromJson: boolean;
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

export function createStreamFetch(options: StreamFetchOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok || !response.body || !isStreamRequest(init)) return response;
    const state: WireFacts = { sawDone: false, fromJson: false };
    const wrapped = new Response(watchBody(response.body, options.idleTimeoutMs, state), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    facts.set(wrapped, state);
    return wrapped;
  };
}

/** The SDK serializes the body with JSON.stringify, so a streaming request has this key. */
function isStreamRequest(init: RequestInit | undefined): boolean {
  return typeof init?.body === 'string' && init.body.includes('"stream":true');
}

function watchBody(body: ReadableStream<Uint8Array>, idleMs: number, state: WireFacts): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let tail = '\n';
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

  /** One read from the server, failing if it stays silent for `idleMs`. */
  async function read(): Promise<ReadableStreamReadResult<Uint8Array>> {
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

  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  function scan(bytes: Uint8Array): void {
    if (state.sawDone) return;
    const text = tail + decoder.decode(bytes, { stream: true });
    if (DONE_LINE.test(text)) state.sawDone = true;
    tail = text.slice(-16);
  }

  /** Reads a body that opened with `{` to its end and turns it into events. */
  async function jsonAsEvents(first: Uint8Array): Promise<Uint8Array> {
    const parts = [first];
    for (;;) {
      const next = await read();
      if (next.done) break;
      parts.push(next.value);
    }
    state.fromJson = true;
    state.sawDone = true;
    return new TextEncoder().encode(completionAsEvents(Buffer.concat(parts).toString('utf8')));
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await read();
        if (next.done) {
          stopTimer();
          controller.close();
          return;
        }
        if (!started) {
          const text = Buffer.from(next.value).toString('utf8').trimStart();
          // Whitespace only so far is passed on (blank lines mean nothing); the next read decides.
          started = text.length > 0;
          if (text.startsWith('{')) {
            controller.enqueue(await jsonAsEvents(next.value));
            stopTimer();
            controller.close();
            return;
          }
        }
        scan(next.value);
        controller.enqueue(next.value);
      } catch (error) {
        stopTimer();
        controller.error(error);
      }
    },
    cancel(reason) {
      stopTimer();
      return reader.cancel(reason);
    },
  });
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
