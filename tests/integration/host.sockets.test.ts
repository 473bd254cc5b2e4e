// The host's sockets: a connection that sends nothing is closed after the idle timeout
// (a live WebSocket is not), and WebSocket connections are capped with a clear reason.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { makeTempDir, removeDir } from '../support/tempDir';

const IDLE_MS = 300;
const MAX = 3;

let dir: string;
let core: ReturnType<typeof createNodeCore>;
let host: RunningHost;

beforeEach(async () => {
  dir = makeTempDir('stepwise-sockets-');
  const rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  core = createNodeCore({ dataDir: path.join(dir, 'data'), env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
  host = await startHost({ core, rendererDir, port: 0, idleTimeoutMs: IDLE_MS, maxConnections: MAX });
});

afterEach(async () => {
  await host.close();
  core.close();
  removeDir(dir);
});

function openSocket(): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
    headers: { Origin: `http://127.0.0.1:${host.port}` },
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('error', reject);
  });
}

function roundTrip(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (frame.id === 7) resolve(frame.result);
    });
    ws.send(JSON.stringify({ id: 7, method: 'app:info', params: {} }));
  });
}

it('closes a connection that sends nothing, and keeps a quiet WebSocket open', async () => {
  const { ws } = await openSocket();
  const silent = net.connect({ host: '127.0.0.1', port: host.port });
  const closedAfter = await new Promise<number>((resolve) => {
    const started = Date.now();
    silent.once('connect', () => silent.once('close', () => resolve(Date.now() - started)));
  });
  // Closed by the host, and not before the timeout.
  expect(closedAfter).toBeGreaterThanOrEqual(IDLE_MS - 50);
  // The WebSocket was just as quiet for at least as long, and still answers.
  expect(ws.readyState).toBe(WebSocket.OPEN);
  expect(await roundTrip(ws)).toMatchObject({ host: 'browser' });
  ws.close();
});

it('caps WebSocket connections with a clear close reason, and lets a new one in when one leaves', async () => {
  const open = await Promise.all(Array.from({ length: MAX }, () => openSocket()));
  const extra = await openSocket();
  expect(await extra.closed).toEqual({
    code: 1013,
    reason: `Too many connections to Stepwise (at most ${MAX}); close other tabs.`,
  });
  // The others are unaffected.
  expect(await roundTrip(open[0].ws)).toMatchObject({ host: 'browser' });
  open[MAX - 1].ws.close();
  await open[MAX - 1].closed;
  // The host sees the close a moment after the client: retry until it has.
  for (;;) {
    const next = await openSocket();
    const outcome = await Promise.race([next.closed.then(() => 'closed'), roundTrip(next.ws).then(() => 'served')]);
    if (outcome === 'served') {
      next.ws.close();
      break;
    }
  }
  for (const { ws } of open.slice(0, MAX - 1)) ws.close();
});
