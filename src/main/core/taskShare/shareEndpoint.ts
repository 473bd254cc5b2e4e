// The task-share MCP endpoint: Streamable HTTP on 127.0.0.1:<port>/mcp, one MCP session
// per client. Before the SDK sees a request it must pass, in order: no Origin header (a
// web page, DNS rebinding), the Host of this listener, the bearer token, then the limits
// (shareLimits: calls and time per session and per token, new sessions a second; a new
// client at the client limit takes the longest-idle one's place, shareSessions). The
// identity challenge (shareIdentity) needs no token. Refusals are JSON-RPC errors a
// client can show as they are.
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { timingSafeEqual } from 'node:crypto';
import type { ShareServer } from './shareTools';
import { createShareLimits } from './shareLimits';
import { createSessionTable, IDLE_MS, MAX_CLIENTS } from './shareSessions';
import { BODY_MAX, readBody } from './requestBody';
import { IDENTITY_PATH, identityProof, isNonce } from './shareIdentity';

export { MAX_CLIENTS } from './shareSessions';
export { CALLS_PER_SECOND } from './shareLimits';

export interface EndpointOptions {
  port: number;
  token: () => string;
  /** A fresh MCP server for a new client. */
  newServer: () => ShareServer;
  /** A client connected or left. */
  onClients?: () => void;
  /** The clock (tests move it); performance.now() by default. */
  now?: () => number;
  /** How long a session may stay unheard (IDLE_MS by default). */
  idleMs?: number;
}

/** How many JSON-RPC requests (not notifications or responses) a POST body carries. */
function requestCount(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => typeof m === 'object' && m !== null && 'method' in m && 'id' in m).length;
}

function requestIds(body: unknown): unknown[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => (typeof m === 'object' && m !== null && 'method' in m && 'id' in m ? [m.id] : []));
}

function sameToken(expected: string, header: string | undefined): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(match[1]);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 429 with one JSON-RPC error per request, so each pending call fails with the reason. */
function refuseCalls(res: ServerResponse, body: unknown, message: string): void {
  const errors = requestIds(body).map((id) => ({ jsonrpc: '2.0', error: { code: -32029, message }, id }));
  res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
  res.end(
    JSON.stringify(
      Array.isArray(body) ? errors : (errors[0] ?? { jsonrpc: '2.0', error: { code: -32029, message }, id: null }),
    ),
  );
}

/** A JSON-RPC error as the whole HTTP answer. */
function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  // A body left unread (too large) would make the next request on this connection garbage.
  const closing: Record<string, string> = status === 413 ? { connection: 'close' } : {};
  res.writeHead(status, { 'content-type': 'application/json', ...closing, ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export async function startEndpoint(options: EndpointOptions) {
  const now = options.now ?? (() => performance.now());
  const sessions = createSessionTable({
    now,
    idleMs: options.idleMs ?? IDLE_MS,
    onChange: () => options.onClients?.(),
  });
  let limits = createShareLimits(now);
  /** Sessions being set up: counted against the limit before their id exists. */
  let starting = 0;
  const url = `http://127.0.0.1:${options.port}/mcp`;
  const reaper = setInterval(() => sessions.reapIdle(), Math.min(options.idleMs ?? IDLE_MS, 10_000) / 2);
  reaper.unref();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.headers.origin !== undefined) {
      return refuse(
        res,
        403,
        -32001,
        'Requests from web pages (with an Origin header) are refused: this endpoint is for local agents only.',
      );
    }
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${options.port}` && host !== `localhost:${options.port}`) {
      return refuse(res, 403, -32001, `Unexpected Host "${host}": connect to http://127.0.0.1:${options.port}/mcp.`);
    }
    const target = new URL(req.url ?? '/', url);
    if (target.pathname === IDENTITY_PATH) return answerChallenge(res, target.searchParams.get('nonce') ?? '');
    if (target.pathname !== '/mcp') return refuse(res, 404, -32601, 'Not found: the MCP endpoint is /mcp.');
    if (!sameToken(options.token(), req.headers.authorization)) {
      return refuse(
        res,
        401,
        -32001,
        'Missing or wrong token: send "Authorization: Bearer <token>" with the token from Stepwise\'s Settings ("Copy configuration").',
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === 'string' && !session) {
      return refuse(res, 404, -32001, 'Unknown or ended session: initialize again.');
    }

    let body: unknown = undefined;
    if (req.method === 'POST') {
      const text = await readBody(req);
      if (text === null) return refuse(res, 413, -32600, `Request too large (over ${BODY_MAX} bytes).`);
      try {
        body = JSON.parse(text);
      } catch {
        return refuse(res, 400, -32700, 'Parse error: the body is not valid JSON-RPC (JSON).');
      }
    }

    if (session) {
      const admitted = limits.admitCalls(session.calls, requestCount(body));
      if (!admitted.ok) return refuseCalls(res, body, admitted.message);
      const release = sessions.use(session);
      res.once('close', release);
      for (let wait = limits.delay(); wait > 0; wait = limits.delay()) {
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      try {
        await session.transport.handleRequest(req, res, body);
      } finally {
        // Cumulative per session, so answers that overlap are each counted once.
        const work = session.share.work();
        limits.charge(work - session.charged);
        session.charged = work;
        // A GET stream stays open for notifications until the client goes.
        if (req.method !== 'GET') release();
      }
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return refuse(res, 400, -32600, 'Bad request: start with an initialize request (no session yet).');
    }
    const admitted = limits.admitSession();
    if (!admitted.ok) return refuse(res, 429, -32029, admitted.message, { 'retry-after': '1' });
    if (starting >= MAX_CLIENTS) {
      return refuse(res, 429, -32029, 'Too many clients starting at once. Wait a second and initialize again.', {
        'retry-after': '1',
      });
    }
    // At the limit the longest-idle client gives its place up: a new one is never refused.
    sessions.makeRoom(starting);
    starting++;
    const share = options.newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: a stream per call costs more than the call; notifications use the GET stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.add(id, { transport, share, calls: limits.sessionCounter(), lastSeen: now(), busy: 0, charged: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    try {
      await share.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      starting--;
    }
  }

  /** The bridge's challenge: proves this endpoint holds the token without it being sent. */
  function answerChallenge(res: ServerResponse, nonce: string): void {
    if (!isNonce(nonce)) return refuse(res, 400, -32600, 'Bad challenge: send ?nonce=<22-128 base64url characters>.');
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ proof: identityProof(options.token(), url, nonce) }));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      refuse(res, 500, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    url,
    clients: () => sessions.size(),
    /** Tells every client subscribed to this conversation's list. */
    listChanged(conversationId: string): void {
      for (const session of sessions.values()) session.share.listChanged(conversationId);
    },
    /** Tells every client the set of lists changed (resources/list_changed). */
    resourcesChanged(): void {
      for (const session of sessions.values()) session.share.resourcesChanged();
    },
    /** Ends the sessions idle for too long now (the reaper does it every few seconds). */
    reapIdle: () => sessions.reapIdle(),
    /** Ends every session (their open streams close) but keeps listening: a new token, new limits. */
    disconnectAll(): Promise<void> {
      limits = createShareLimits(now);
      return sessions.endAll();
    },
    /** Disconnects every client at once and stops listening. */
    async close(): Promise<void> {
      clearInterval(reaper);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await this.disconnectAll();
      server.closeAllConnections();
      await closed;
    },
  };
}

export type Endpoint = Awaited<ReturnType<typeof startEndpoint>>;
