// The task-share MCP endpoint: Streamable HTTP on 127.0.0.1:<port>/mcp, one MCP session
// per client. Before the SDK sees a request it must pass, in order: no Origin header (a
// web page, DNS rebinding), the Host of this listener, the bearer token, the client
// limit and the call rate. Refusals are JSON-RPC errors a client can show as they are.
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { timingSafeEqual } from 'node:crypto';
import type { ShareServer } from './shareTools';

export const MAX_CLIENTS = 16;
export const CALLS_PER_SECOND = 50;
const BODY_MAX = 1024 * 1024;
/** A client that went away without ending its session gives up its place after this long unheard. */
const IDLE_MS = 5 * 60_000;

export interface EndpointOptions {
  port: number;
  token: () => string;
  /** A fresh MCP server for a new client. */
  newServer: () => ShareServer;
  /** A client connected or left. */
  onClients?: () => void;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  share: ShareServer;
  /** Start times of this second's calls (a sliding one-second window). */
  calls: number[];
  lastSeen: number;
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

/** A JSON-RPC error as the whole HTTP answer. */
function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_MAX) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startEndpoint(options: EndpointOptions) {
  const sessions = new Map<string, Session>();
  /** Sessions being set up: counted against the limit before their id exists. */
  let starting = 0;
  const now = () => performance.now();

  /** Counts `count` calls against the client's second; false when they would go over. */
  function admit(session: Session, count: number): boolean {
    const at = now();
    session.lastSeen = at;
    while (session.calls.length && session.calls[0] <= at - 1000) session.calls.shift();
    if (session.calls.length + count > CALLS_PER_SECOND) return false;
    for (let i = 0; i < count; i++) session.calls.push(at);
    return true;
  }

  /** Frees the places of clients unheard for IDLE_MS (they left without ending their session). */
  function evictIdle() {
    const limit = now() - IDLE_MS;
    for (const [id, session] of sessions) {
      if (session.lastSeen < limit) {
        sessions.delete(id);
        void session.share.server.close().catch(() => {});
      }
    }
  }

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
    if ((req.url ?? '').split('?')[0] !== '/mcp')
      return refuse(res, 404, -32601, 'Not found: the MCP endpoint is /mcp.');
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
      if (!admit(session, requestCount(body))) {
        // One JSON-RPC error per request, so the client's pending call fails with the reason.
        const message = `Rate limit: at most ${CALLS_PER_SECOND} calls a second per client. Wait a second and try again.`;
        const errors = requestIds(body).map((id) => ({ jsonrpc: '2.0', error: { code: -32029, message }, id }));
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify(Array.isArray(body) ? errors : errors[0]));
        return;
      }
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return refuse(res, 400, -32600, 'Bad request: start with an initialize request (no session yet).');
    }
    if (sessions.size + starting >= MAX_CLIENTS) evictIdle();
    if (sessions.size + starting >= MAX_CLIENTS) {
      return refuse(
        res,
        503,
        -32000,
        `Too many clients: at most ${MAX_CLIENTS} can be connected at once. Close another client and try again.`,
      );
    }
    starting++;
    const share = options.newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: a stream per call costs more than the call; notifications use the GET stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, share, calls: [], lastSeen: now() });
        options.onClients?.();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId && sessions.delete(transport.sessionId)) options.onClients?.();
    };
    try {
      await share.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      starting--;
    }
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
    url: `http://127.0.0.1:${options.port}/mcp`,
    clients: () => sessions.size,
    /** Tells every client subscribed to this conversation's list. */
    listChanged(conversationId: string): void {
      for (const session of sessions.values()) session.share.listChanged(conversationId);
    },
    /** Ends every session (their open streams close) but keeps listening: a new token. */
    disconnectAll(): Promise<void> {
      const closing = [...sessions.values()].map((s) => s.share.server.close().catch(() => {}));
      sessions.clear();
      return Promise.all(closing).then(() => {});
    },
    /** Disconnects every client at once and stops listening. */
    async close(): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await this.disconnectAll();
      server.closeAllConnections();
      await closed;
    },
  };
}

export type Endpoint = Awaited<ReturnType<typeof startEndpoint>>;
