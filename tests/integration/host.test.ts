// The browser host over real sockets: the token on the page and the WebSocket, the Origin
// and Host checks, loopback-only binding, no files outside the renderer, and the contract
// over WebSocket frames (including malformed ones) with main still serving afterwards.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { makeTempDir, removeDir } from '../support/tempDir';

const SECRET = 'secret-outside-the-renderer';
const INDEX = '<!doctype html><title>Stepwise test page</title><script type="module" src="/assets/app.js"></script>';

let dir: string;
let core: ReturnType<typeof createNodeCore>;
let host: RunningHost;

beforeAll(async () => {
  dir = makeTempDir('stepwise-host-');
  const rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("app");');
  fs.writeFileSync(path.join(dir, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(dir, 'renderer-evil.txt'), SECRET);
  core = createNodeCore({ dataDir: path.join(dir, 'data'), env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
  host = await startHost({ core, rendererDir, port: 0 });
});

afterAll(async () => {
  await host?.close();
  core?.close();
  removeDir(dir);
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request: the path is sent exactly as given, and any Host header can be set. */
function request(rawPath: string, options: { headers?: Record<string, string>; method?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        path: rawPath,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const origin = () => `http://127.0.0.1:${host.port}`;

type Opened = { socket: WebSocket; frames: unknown[]; next: () => Promise<unknown> };

/** Opens a WebSocket; resolves with the HTTP status it was refused with, or the open socket. */
function connect(
  query: string,
  headers: Record<string, string> = { Origin: origin() },
  pathname = '/ws',
): Promise<number | Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}${pathname}${query}`, { headers });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => reject(error));
    const frames: unknown[] = [];
    const waiters: Array<(frame: unknown) => void> = [];
    socket.on('message', (data) => {
      const frame: unknown = JSON.parse(String(data));
      const waiter = waiters.shift();
      if (waiter) waiter(frame);
      else frames.push(frame);
    });
    socket.on('open', () =>
      resolve({
        socket,
        frames,
        next: () => (frames.length ? Promise.resolve(frames.shift()) : new Promise((r) => waiters.push(r))),
      }),
    );
  });
}

async function open(): Promise<Opened> {
  const result = await connect(`?token=${host.token}`);
  if (typeof result === 'number') throw new Error(`WebSocket refused with ${result}`);
  return result;
}

/** Sends a frame and waits for the response with that id, skipping pushed events. */
async function roundTrip(ws: Opened, frame: unknown, id: number): Promise<unknown> {
  ws.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  for (;;) {
    const reply = (await ws.next()) as { id?: number };
    if (reply.id === id) return reply;
  }
}

describe('page', () => {
  it('is refused without the token, or with a wrong one', async () => {
    for (const query of [
      '',
      '?token=',
      '?token=wrong',
      `?token=${host.token}x`,
      `?token=${host.token.slice(1)}`,
      `?other=${host.token}`,
    ]) {
      const reply = await request(`/${query}`);
      expect(reply.status, query).toBe(401);
      expect(reply.body).toMatch(/Unauthorized/);
      expect(reply.body).not.toContain('Stepwise test page');
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is served with the right token, with a strict CSP and no cookie', async () => {
    const reply = await request(`/?token=${host.token}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(INDEX);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    const csp = reply.headers['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain(`ws://127.0.0.1:${host.port}`);
    // Cookies ignore ports: one would reach every other server on 127.0.0.1.
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
  });

  it('serves the renderer’s static files (the same for everyone) without a token or cookie', async () => {
    const ok = await request('/assets/app.js');
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/javascript/);
    expect(ok.headers['set-cookie']).toBeUndefined();
    expect((await request('/assets/missing.js')).status).toBe(404);
  });

  it('answers only to its own Host names (no DNS rebinding)', async () => {
    for (const name of [
      'evil.example',
      `evil.example:${host.port}`,
      `127.0.0.1:${host.port + 1}`,
      `127.0.0.1.nip.io:${host.port}`,
    ]) {
      const reply = await request(`/?token=${host.token}`, { headers: { Host: name } });
      expect(reply.status, name).toBe(421);
      expect(reply.body).not.toContain('Stepwise test page');
    }
    expect((await request(`/?token=${host.token}`, { headers: { Host: `localhost:${host.port}` } })).status).toBe(200);
  });

  it('refuses other methods', async () => {
    expect((await request(`/?token=${host.token}`, { method: 'POST' })).status).toBe(405);
    expect((await request('/assets/app.js', { method: 'DELETE' })).status).toBe(405);
  });
});

describe('files outside the renderer', () => {
  const attempts = [
    '/../secret.txt',
    '/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/%2F%2Fetc%2Fpasswd',
    '/%2e%2e%2frenderer-evil.txt',
    '/%00',
    '/assets/app.js%00.html',
  ];

  it.each(attempts)('are never served: %s', async (attempt) => {
    const withToken = attempt.includes('?') ? attempt : `${attempt}?token=${host.token}`;
    for (const reply of [await request(attempt), await request(withToken)]) {
      expect(reply.status).not.toBe(200);
      expect(reply.body).not.toContain(SECRET);
    }
  });

  it.each(['/%E0%A4%A', '/assets/%', 'http://[', 'http://[::1/'])(
    'a malformed request target (%s) gets an error response and the host keeps serving',
    async (target) => {
      const reply = await request(target);
      expect(reply.status).toBe(400);
      expect((await request(`/?token=${host.token}`)).status).toBe(200);
    },
  );
});

describe('binding', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(new URL(host.url).hostname).toBe('127.0.0.1');
    const refused = (address: string) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect({ host: address, port: host.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', () => resolve(true));
      });
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((i): i is os.NetworkInterfaceInfo => !!i && !i.internal)
      .map((i) => i.address);
    for (const address of ['::1', ...others]) expect(await refused(address), address).toBe(true);
    if (fs.existsSync('/proc/net/tcp')) {
      // Linux: the listening socket's local address is 127.0.0.1 (0100007F), not 0.0.0.0.
      const portHex = host.port.toString(16).toUpperCase().padStart(4, '0');
      const listening = fs
        .readFileSync('/proc/net/tcp', 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((cols) => cols[1]?.endsWith(`:${portHex}`) && cols[3] === '0A');
      expect(listening.map((cols) => cols[1])).toEqual([`0100007F:${portHex}`]);
    }
  });
});

describe('WebSocket', () => {
  it('is refused with 401 without the token or with a wrong one', async () => {
    expect(await connect('')).toBe(401);
    expect(await connect('?token=')).toBe(401);
    expect(await connect('?token=wrong')).toBe(401);
    expect(await connect(`?token=${host.token}`.slice(0, -1))).toBe(401);
    // A cookie is not a way in either: the page passes the token explicitly.
    expect(await connect('', { Origin: origin(), Cookie: `stepwise_token=${host.token}` })).toBe(401);
  });

  it('is refused with 403 from a foreign or missing Origin, even with the token', async () => {
    for (const o of [
      'http://evil.example',
      `http://evil.example:${host.port}`,
      'null',
      `https://127.0.0.1:${host.port}`,
      `http://127.0.0.1:${host.port + 1}`,
    ]) {
      expect(await connect(`?token=${host.token}`, { Origin: o }), o).toBe(403);
    }
    expect(await connect(`?token=${host.token}`, {})).toBe(403);
  });

  it('is refused on another path or Host, even with the token', async () => {
    expect(await connect(`?token=${host.token}`, { Origin: origin() }, '/socket')).toBe(403);
    expect(await connect(`?token=${host.token}`, { Origin: origin(), Host: `evil.example:${host.port}` })).toBe(403);
  });

  it('survives an upgrade request with a Host header that is not a host at all', async () => {
    const status = await connect(`?token=${host.token}`, { Origin: origin(), Host: 'not a host' }).catch(() => 'error');
    expect(status).not.toBeTypeOf('object');
    expect((await request(`/?token=${host.token}`)).status).toBe(200);
  });

  it('survives clients that reset the connection during a refused upgrade', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      for (let i = 0; i < 50; i++) {
        await new Promise<void>((resolve) => {
          const socket = net.connect(host.port, '127.0.0.1', () => {
            socket.write(
              `GET /ws?token=wrong HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
                'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
            );
            socket.resetAndDestroy();
            resolve();
          });
          socket.on('error', () => resolve());
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
    expect((await request(`/?token=${host.token}`)).status).toBe(200);
  });

  it('accepts the right token from the page origin (127.0.0.1 or localhost)', async () => {
    const ws = await open();
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);
    ws.socket.close();
    const viaLocalhost = await connect(`?token=${host.token}`, { Origin: `http://localhost:${host.port}` });
    expect(typeof viaLocalhost).toBe('object');
    (viaLocalhost as Opened).socket.close();
  });

  it('carries calls as {id, method, params} → {id, result} | {id, error}', async () => {
    const ws = await open();
    try {
      const created = (await roundTrip(
        ws,
        { id: 1, method: 'conversations:create', params: { title: 'Over the socket' } },
        1,
      )) as {
        result: { id: string; title: string };
      };
      expect(created.result.title).toBe('Over the socket');
      expect(
        await roundTrip(ws, { id: 2, method: 'conversations:get', params: { id: created.result.id } }, 2),
      ).toMatchObject({
        id: 2,
        result: { id: created.result.id },
      });
      expect(
        await roundTrip(ws, { id: 3, method: 'conversations:rename', params: { id: created.result.id, title: '' } }, 3),
      ).toEqual({
        id: 3,
        error: {
          code: 'invalid_request',
          message: 'Invalid request for conversations:rename: title: title must not be empty',
        },
      });
      expect(await roundTrip(ws, { id: 4, method: 'no:such', params: {} }, 4)).toEqual({
        id: 4,
        error: { code: 'unknown_method', message: 'Unknown call "no:such"' },
      });
    } finally {
      ws.socket.close();
    }
  });

  it('answers malformed frames with an error and stays open', async () => {
    const ws = await open();
    try {
      expect(await roundTrip(ws, 'this is not JSON', -1)).toEqual({
        id: -1,
        error: { code: 'invalid_request', message: 'Frame is not JSON' },
      });
      expect(await roundTrip(ws, { id: 7, params: {} }, 7)).toMatchObject({
        id: 7,
        error: { code: 'invalid_request', message: /Invalid frame: method/ },
      });
      expect(await roundTrip(ws, { id: 8, method: 'app:info', params: {}, extra: 1 }, 8)).toMatchObject({
        error: { code: 'invalid_request' },
      });
      expect(await roundTrip(ws, JSON.stringify([1, 2, 3]), -1)).toMatchObject({ error: { code: 'invalid_request' } });
      expect(await roundTrip(ws, JSON.stringify(null), -1)).toMatchObject({ error: { code: 'invalid_request' } });
      expect(await roundTrip(ws, { id: 9, method: 'conversations:list', params: 'nope' }, 9)).toMatchObject({
        error: { code: 'invalid_request', message: /^Invalid request for conversations:list: / },
      });
      expect(ws.socket.readyState).toBe(WebSocket.OPEN);
      expect(await roundTrip(ws, { id: 10, method: 'app:info', params: {} }, 10)).toMatchObject({
        result: { host: 'browser' },
      });
    } finally {
      ws.socket.close();
    }
  });

  it('survives a client that breaks the WebSocket protocol, and keeps serving the others', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    const bystander = await open();
    try {
      const rude = await open();
      const closed = new Promise((resolve) => rude.socket.once('close', resolve));
      // A masked client frame with reserved opcode 3, written under the ws library: the
      // host must close this socket, not fall over.
      (rude.socket as unknown as { _socket: net.Socket })._socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
      await closed;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
      expect(await roundTrip(bystander, { id: 1, method: 'app:info', params: {} }, 1)).toMatchObject({
        result: { host: 'browser' },
      });
    } finally {
      process.off('uncaughtException', record);
      bystander.socket.close();
    }
  });

  it('pushes events to every connected client as {event, payload}', async () => {
    const a = await open();
    const b = await open();
    try {
      const created = (await roundTrip(
        a,
        { id: 1, method: 'conversations:create', params: { title: 'Broadcast' } },
        1,
      )) as {
        result: { id: string };
      };
      let event: { event?: string; payload?: { id: string; kind: string } };
      do event = (await b.next()) as typeof event;
      while (event.event !== 'conversations:changed');
      expect(event).toMatchObject({
        event: 'conversations:changed',
        payload: { id: created.result.id, kind: 'created' },
      });
    } finally {
      a.socket.close();
      b.socket.close();
    }
  });
});
