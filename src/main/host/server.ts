// The browser host: serves the built renderer on 127.0.0.1 and carries the IPC
// contract over a WebSocket. Same core, same contract as the desktop app.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { describeZodError } from '../../shared/ipc';
import { WsRequestFrame, type WsEventFrame, type WsResponseFrame } from '../../shared/wsFrames';
import { IMPORT_MAX_CHARS } from '../../shared/exportContract';
import type { Core } from '../core/createCore';
import { allowedHosts, allowedOrigins, bearerToken, newToken, tokensMatch } from './tokenAuth';
import { registerHttpRoutes, type HttpRoute } from './httpRoutes';
import { SANDBOX_PAGE } from '../core/mcp/mcpAppCsp';
import { sandboxHeaders, securityHeaders } from './securityHeaders';
import { UPDATING_SCRIPT_PATH, updatingScript, withUpdatingNotice } from '../core/db/updatingPage';

export const HOST_ADDRESS = '127.0.0.1';

export interface HostOptions {
  /**
   * A promise while the data is being updated (migrations in a worker): the page then
   * says "Updating your data…" and opens the app once the core is there.
   */
  core: Core | Promise<Core>;
  rendererDir: string;
  port?: number;
  token?: string;
  /** A connection that sends nothing for this long is closed (tests shorten it). */
  idleTimeoutMs?: number;
  /** At most this many WebSocket connections at once (tests lower it). */
  maxConnections?: number;
}

export const IDLE_TIMEOUT_MS = 30_000;
export const MAX_CONNECTIONS = 64;
/** "Try again later": the page's reconnect loop does exactly that. */
const CLOSE_TOO_MANY = 1013;

export interface RunningHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * The built page carries the desktop app's policy in a meta tag, which allows no
 * WebSocket. Both policies would apply, so the host drops the meta tag and sends its own
 * (the same rules plus this host's socket) as a header.
 */
function withoutMetaCsp(page: Buffer): string {
  return page.toString('utf8').replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>\s*/i, '');
}

/**
 * The request target against a fixed base: the Host header is checked separately and
 * may be anything, and no request may throw out of a handler (that would end the host).
 */
function requestUrl(req: http.IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', `http://${HOST_ADDRESS}`);
  } catch {
    return null;
  }
}

/** The path as a relative file name, or null for a malformed percent-escape. */
function decodedPath(url: URL): string | null {
  try {
    return decodeURIComponent(url.pathname).replace(/^\/+/, '');
  } catch {
    return null;
  }
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const { rendererDir } = options;
  const token = options.token ?? newToken();
  const root = path.resolve(rendererDir);
  let port = 0;
  const routes: HttpRoute[] = [];
  let core: Core | null = null;
  /** Sockets asked for while updating: answered once the core is there, as if it had taken that long. */
  const heldUpgrades = new Map<Duplex, () => void>();
  let forwarding: { dispose(): void } = { dispose: () => {} };
  const ready = (running: Core) => {
    core = running;
    registerHttpRoutes(routes, running);
    forwarding = running.bus.subscribe((event, payload) => {
      const frame = JSON.stringify({ event, payload } satisfies WsEventFrame);
      for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(frame);
    });
    for (const upgrade of heldUpgrades.values()) upgrade();
    heldUpgrades.clear();
  };

  const deny = (res: http.ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders(port) });
    res.end(text);
  };

  // While a worker updates the database, the page says so in its root and its app loads
  // meanwhile; its socket is held until the core is there (below), then the app draws.
  const appPage = (body: Buffer) => (core ? withoutMetaCsp(body) : withUpdatingNotice(withoutMetaCsp(body)));

  const server = http.createServer((req, res) => {
    if (!allowedHosts(port).includes(req.headers.host ?? '')) return deny(res, 421, 'Misdirected request');
    const url = requestUrl(req);
    if (!url) return deny(res, 400, 'Bad request');
    const queryToken = url.searchParams.get('token');
    const isPage = url.pathname === '/' || url.pathname === '/index.html';
    // No cookie carries the token: cookies ignore ports, so every other server on this
    // machine would receive it. The page needs it in its address; routes in the address or
    // an Authorization header; the WebSocket in its address. The renderer's static files
    // are the same for everyone and hold nothing private.
    const unauthorized = () =>
      deny(res, 401, 'Unauthorized: open the address that `npm run serve` printed; it carries the token.');
    if (isPage && !tokensMatch(token, queryToken)) return unauthorized();
    if (url.pathname === UPDATING_SCRIPT_PATH) {
      res.writeHead(200, { 'Content-Type': MIME['.js'], ...securityHeaders(port), 'Cache-Control': 'no-store' });
      return void res.end(updatingScript());
    }
    const route = routes.find((r) => r.method === req.method && r.path === url.pathname);
    if (route) {
      if (!tokensMatch(token, bearerToken(req) ?? queryToken)) return unauthorized();
      if (req.headers.origin && !allowedOrigins(port).includes(req.headers.origin))
        return deny(res, 403, 'Forbidden origin');
      return void route.handle(req, res, url).catch((error: unknown) => {
        // Once a download has begun, cutting it is the only way to say it failed.
        if (res.headersSent) return void res.destroy();
        deny(res, 500, error instanceof Error ? error.message : String(error));
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed');
    const relative = isPage ? 'index.html' : decodedPath(url);
    if (relative === null) return deny(res, 400, 'Bad request');
    const file = path.resolve(root, relative);
    if (!file.startsWith(root + path.sep) || file.includes('\0')) return deny(res, 404, 'Not found');
    fs.readFile(file, (error, body) => {
      if (error) return deny(res, 404, 'Not found');
      const headers: Record<string, string> = {
        'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream',
        ...(relative === SANDBOX_PAGE ? sandboxHeaders() : securityHeaders(port)),
        'Cache-Control': isPage ? 'no-store' : 'private, max-age=3600',
      };
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : isPage ? appPage(body) : body);
    });
  });

  // Every socket that goes quiet is closed: one that never sends a byte would otherwise
  // stay open for ever. The WebSocket library clears this timeout on upgraded sockets.
  const idleMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  server.timeout = idleMs;
  server.headersTimeout = idleMs;
  server.requestTimeout = Math.max(idleMs, 60_000);
  const stopSilentSweep = closeSilentSockets(server, idleMs);

  const wss = new WebSocketServer({ noServer: true, maxPayload: IMPORT_MAX_CHARS * 4 + 1024 * 1024 });
  const clients = new Set<WebSocket>();
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;

  server.on('upgrade', (req, socket, head) => {
    // Node drops its own error listener on upgrade: without one, a client that resets
    // the connection would throw ECONNRESET out of the host and end it.
    socket.on('error', () => socket.destroy());
    if (!core) {
      heldUpgrades.set(socket, () => upgradeSocket(req, socket, head));
      socket.once('close', () => heldUpgrades.delete(socket));
      return;
    }
    upgradeSocket(req, socket, head);
  });

  function upgradeSocket(req: http.IncomingMessage, socket: Duplex, head: Buffer) {
    const url = requestUrl(req);
    const hostOk = allowedHosts(port).includes(req.headers.host ?? '');
    const originOk = allowedOrigins(port).includes(req.headers.origin ?? '');
    const tokenOk = !!url && tokensMatch(token, url.searchParams.get('token'));
    if (!url || url.pathname !== '/ws' || !hostOk || !originOk || !tokenOk) {
      const status = !tokenOk ? '401 Unauthorized' : '403 Forbidden';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (clients.size >= maxConnections) {
        ws.close(CLOSE_TOO_MANY, `Too many connections to Stepwise (at most ${maxConnections}); close other tabs.`);
        return;
      }
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      // A protocol error (oversized or malformed frame) ends this socket, not the host.
      ws.on('error', () => ws.terminate());
      ws.on('message', (data) => void handleFrame(ws, data.toString()));
    });
  }

  const respond = (ws: WebSocket, frame: WsResponseFrame) => ws.send(JSON.stringify(frame));

  async function handleFrame(ws: WebSocket, text: string) {
    if (!core) return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      respond(ws, { id: -1, error: { code: 'invalid_request', message: 'Frame is not JSON' } });
      return;
    }
    const frame = WsRequestFrame.safeParse(raw);
    if (!frame.success) {
      const id = typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : -1;
      const message = `Invalid frame: ${describeZodError(frame.error)}`;
      respond(ws, { id, error: { code: 'invalid_request', message } });
      return;
    }
    const result = await core.dispatch(frame.data.method, frame.data.params);
    if (ws.readyState !== ws.OPEN) return;
    respond(ws, result.ok ? { id: frame.data.id, result: result.value } : { id: frame.data.id, error: result.error });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST_ADDRESS, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  if (options.core instanceof Promise) {
    // A failed update ends the host (its caller reports why); pages stop waiting.
    options.core.then(ready, () => {
      for (const socket of heldUpgrades.keys()) socket.destroy();
      heldUpgrades.clear();
    });
  } else ready(options.core);

  return {
    url: `http://${HOST_ADDRESS}:${port}/?token=${token}`,
    port,
    token,
    async close() {
      stopSilentSweep();
      forwarding.dispose();
      for (const ws of clients) ws.terminate();
      for (const socket of heldUpgrades.keys()) socket.destroy();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Closes every socket that has sent nothing within the idle limit. Node's own socket
 * timeout missed some of the connections accepted in the host's first moments (they
 * stayed open for good in about a third of start-ups), so this sweep checks every silent
 * socket itself, from its acceptance on, whatever Node's timer lists did. Sockets that
 * have sent a byte are left to Node's timeouts, which hold for them.
 */
function closeSilentSockets(server: http.Server, idleMs: number): () => void {
  const silent = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    silent.set(socket, Date.now());
    socket.once('close', () => silent.delete(socket));
  });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [socket, since] of silent) {
        if (socket.bytesRead > 0) silent.delete(socket);
        else if (now - since >= idleMs) {
          silent.delete(socket);
          socket.destroy();
        }
      }
    },
    Math.max(50, Math.min(1000, idleMs / 10)),
  );
  sweep.unref();
  return () => clearInterval(sweep);
}
