// A scripted OpenAI-compatible server for tests. The real `openai` SDK talks to it over
// HTTP on 127.0.0.1, so tests exercise streaming, tool calls and failures for real.
//
//   const server = await startScriptedServer({ script: [
//     { toolCalls: [{ name: 'get_current_time', arguments: ['{"time', 'Zone":"UTC"}'] }] },
//     { text: ['The time ', 'is noon.'] },
//   ] });
//   env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-test', STEPWISE_MODEL: 'scripted' }
//   ... server.chatRequests()[1].body.messages  // what the app sent
//   await server.close();
//
// Every POST /v1/chat/completions (streaming or not) takes the next turn of the script.
// A script can also be a function of the request, to serve several agents at once (route
// on the system prompt or the last message). When an array script runs out, `fallback`
// answers (default: the text "OK").
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  /** Defaults to `call_<n>`. */
  id?: string;
  name: string;
  /** The arguments string; an array gives the exact pieces sent in separate chunks. */
  arguments: string | string[];
}

export interface Turn {
  /** The reply text; an array gives the exact chunks. A string is sent in chunks of `chunkSize`. */
  text?: string | string[];
  /** Tool calls of this turn, streamed after the text one after another (index 0, 1, …). */
  toolCalls?: ScriptedToolCall[];
  /** Characters per chunk when `text` is a string (default 8). */
  chunkSize?: number;
  /** Pause before each chunk, in ms (default 0). Use it to have time to stop or kill mid-stream. */
  chunkDelayMs?: number;
  /** Answer with this HTTP status and an OpenAI-style error body instead (401, 404, 429, 500…). */
  status?: number;
  /** The error message in the body of a `status` answer. */
  errorMessage?: string;
  /** Never answer (not even headers): the client's timeout has to fire. */
  hang?: boolean;
  /** Send this many chunks, then go silent with the connection open. */
  hangAfter?: number;
  /** Send this many chunks, then destroy the socket (no finish reason, no [DONE]). */
  dropAfter?: number;
  /** Defaults to `tool_calls` when the turn has tool calls, else `stop`. */
  finishReason?: string;
  /**
   * Exact bytes instead of a generated answer: each piece is one write, a short pause apart
   * (`{ pauseMs }` for a longer one, `{ until }` to wait for a promise, e.g. a test's gate),
   * so the client reads them separately. Answers with
   * `status` (default 200), `contentType` (default text/event-stream) and `headers`; after
   * the last piece the response ends, or with `rawEnd` hangs or drops the socket.
   */
  raw?: RawPiece[];
  contentType?: string;
  headers?: Record<string, string>;
  rawEnd?: 'end' | 'hang' | 'drop';
  /** Usage sent when the request asks for it (`stream_options.include_usage`); default: about 4 characters a token. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export type RawPiece = string | Uint8Array | { pauseMs: number } | { until: Promise<unknown> };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or null. */
  body: ChatBody | null;
  at: number;
  /** When a streamed answer's last byte was sent (benchmarks time from here). */
  finishedAt?: number;
}

/** The parts of a chat completion request body tests look at. */
export interface ChatBody {
  model?: string;
  stream?: boolean;
  temperature?: number;
  messages: Array<{
    role: string;
    content?: string | null;
    tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools?: Array<{
    type: string;
    function: { name: string; description?: string; parameters: Record<string, unknown> };
  }>;
  [key: string]: unknown;
}

export type Script = Turn[] | ((request: RecordedRequest & { body: ChatBody }, index: number) => Turn | Promise<Turn>);

export interface ScriptedServerOptions {
  script?: Script;
  fallback?: Turn;
  /** Ids served at GET /v1/models; a number answers with that HTTP status instead. Default ['scripted']. */
  models?: string[] | number;
  /** `retry-after-ms` sent with 429/5xx answers so SDK retries are quick (default 1). */
  retryAfterMs?: number;
  /** Answer 400 to any request carrying `stream_options`, like servers that do not know it. */
  rejectStreamOptions?: boolean;
}

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:41234/v1 — use as OPENAI_BASE_URL. */
  baseUrl: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Only the POST /v1/chat/completions requests. */
  chatRequests(): Array<RecordedRequest & { body: ChatBody }>;
  /** Only the streaming chat requests (the agent loop; not titles). */
  streamRequests(): Array<RecordedRequest & { body: ChatBody }>;
  /** Appends turns to an array script. */
  push(...turns: Turn[]): void;
  /** Replaces the script (and restarts its index). */
  setScript(script: Script): void;
  /** Resolves once `count` chat requests have arrived. */
  waitForChatRequests(count: number): Promise<void>;
  /** Ends every open response (hanging ones included) and stops listening. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `n` copies of a turn, e.g. `times(3, { status: 500 })` for a request and its 2 SDK retries. */
export function times(n: number, turn: Turn): Turn[] {
  return Array.from({ length: n }, () => ({ ...turn }));
}

export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  let script: Script = options.script ?? [];
  let index = 0;
  let callCounter = 0;
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const sockets = new Set<import('node:net').Socket>();
  const retryAfter = String(options.retryAfterMs ?? 1);

  const chatRequests = () =>
    requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions') && r.body) as Array<
      RecordedRequest & { body: ChatBody }
    >;

  async function nextTurn(request: RecordedRequest & { body: ChatBody }): Promise<Turn> {
    const i = index++;
    if (typeof script === 'function') return script(request, i);
    return script[i] ?? options.fallback ?? { text: 'OK' };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted server failed: ${String(error)}` } }));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: ChatBody | null = null;
    try {
      body = raw ? (JSON.parse(raw) as ChatBody) : null;
    } catch {
      body = null;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: req.headers,
      body,
      at: Date.now(),
    };
    requests.push(recorded);

    if (req.method === 'GET' && url.pathname === '/v1/models') {
      const models = options.models ?? ['scripted'];
      if (typeof models === 'number') return sendError(res, models, 'no model list here');
      return sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })),
      });
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions' || !body) {
      return sendError(res, 404, `Unknown route ${req.method} ${url.pathname}`);
    }
    const chat = recorded as RecordedRequest & { body: ChatBody };
    if (options.rejectStreamOptions && body.stream_options !== undefined) {
      return sendError(res, 400, 'Unrecognized request argument supplied: stream_options');
    }
    const count = chatRequests().length;
    for (const waiter of waiters.filter((w) => w.count <= count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const turn = await nextTurn(chat);
    if (turn.hang) return; // never answer; close() ends it
    if (turn.raw) return sendRaw(res, turn);
    if (turn.status) {
      const extra: Record<string, string> =
        turn.status === 429 || turn.status >= 500 ? { 'retry-after-ms': retryAfter } : {};
      return sendError(res, turn.status, turn.errorMessage ?? defaultMessage(turn.status, body, req), extra);
    }
    const calls = (turn.toolCalls ?? []).map((c) => ({ ...c, id: c.id ?? `call_${++callCounter}` }));
    const finishReason = turn.finishReason ?? (calls.length ? 'tool_calls' : 'stop');
    const textChunks = splitText(turn.text, turn.chunkSize ?? 8);
    if (!body.stream) {
      return sendJson(res, 200, {
        id: 'chatcmpl-scripted',
        object: 'chat.completion',
        created: 0,
        model: body.model ?? 'scripted',
        choices: [
          {
            index: 0,
            finish_reason: finishReason,
            message: {
              role: 'assistant',
              content: textChunks.join('') || null,
              ...(calls.length
                ? {
                    tool_calls: calls.map((c) => ({
                      id: c.id,
                      type: 'function',
                      function: { name: c.name, arguments: [c.arguments].flat().join('') },
                    })),
                  }
                : {}),
            },
          },
        ],
      });
    }
    await streamTurn(res, body, turn, textChunks, calls, finishReason);
    recorded.finishedAt = Date.now();
  }

  async function streamTurn(
    res: http.ServerResponse,
    body: ChatBody,
    turn: Turn,
    textChunks: string[],
    calls: Array<ScriptedToolCall & { id: string }>,
    finishReason: string,
  ) {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    const base = {
      id: 'chatcmpl-scripted',
      object: 'chat.completion.chunk',
      created: 0,
      model: body.model ?? 'scripted',
    };
    const deltas: Array<Record<string, unknown>> = [{ role: 'assistant', content: '' }];
    for (const text of textChunks) deltas.push({ content: text });
    calls.forEach((call, i) => {
      const pieces = [call.arguments].flat();
      deltas.push({
        tool_calls: [
          { index: i, id: call.id, type: 'function', function: { name: call.name, arguments: pieces[0] ?? '' } },
        ],
      });
      for (const piece of pieces.slice(1)) deltas.push({ tool_calls: [{ index: i, function: { arguments: piece } }] });
    });
    let sent = 0;
    for (const delta of deltas) {
      if (res.destroyed) return;
      if (turn.dropAfter !== undefined && sent >= turn.dropAfter) {
        res.socket?.destroy();
        return;
      }
      if (turn.hangAfter !== undefined && sent >= turn.hangAfter) return;
      if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs);
      // Wait until each chunk is on the wire, so a drop or hang happens after what was sent.
      await write(res, `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
      sent++;
    }
    if (turn.dropAfter !== undefined) {
      res.socket?.destroy();
      return;
    }
    if (turn.hangAfter !== undefined) return;
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] })}\n\n`,
    );
    if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
      const completion =
        textChunks.join('').length + calls.reduce((n, c) => n + [c.arguments].flat().join('').length, 0);
      const usage = turn.usage ?? {
        prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4),
        completion_tokens: Math.ceil(completion / 4),
      };
      res.write(
        `data: ${JSON.stringify({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
      );
    }
    res.write('data: [DONE]\n\n');
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    chatRequests,
    streamRequests: () => chatRequests().filter((r) => r.body.stream === true),
    push(...turns) {
      if (typeof script === 'function') throw new Error('push() needs an array script');
      script.push(...turns);
    },
    setScript(next) {
      script = next;
      index = 0;
    },
    waitForChatRequests(count) {
      if (chatRequests().length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function sendRaw(res: http.ServerResponse, turn: Turn): Promise<void> {
  res.writeHead(turn.status ?? 200, { 'Content-Type': turn.contentType ?? 'text/event-stream', ...turn.headers });
  res.flushHeaders();
  for (const piece of turn.raw ?? []) {
    if (res.destroyed) return;
    if (typeof piece === 'object' && 'pauseMs' in piece) {
      await sleep(piece.pauseMs);
      continue;
    }
    if (typeof piece === 'object' && 'until' in piece) {
      await piece.until;
      continue;
    }
    await write(res, piece);
    await sleep(2);
  }
  if (turn.rawEnd === 'hang') return;
  if (turn.rawEnd === 'drop') res.socket?.destroy();
  else res.end();
}

function write(res: http.ServerResponse, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    res.write(data, () => resolve());
  });
}

function splitText(text: string | string[] | undefined, size: number): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text;
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function defaultMessage(status: number, body: ChatBody, req: http.IncomingMessage): string {
  if (status === 401) {
    // Echo the key the way a careless server might: the app must never show it.
    const key = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    return `Incorrect API key provided: ${key}`;
  }
  if (status === 404) return `The model \`${body.model}\` does not exist`;
  if (status === 429) return 'Rate limit reached';
  return 'The server had an error while processing your request';
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function sendError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  sendJson(res, status, { error: { message, type: 'scripted_error', code: null, param: null } }, headers);
}
