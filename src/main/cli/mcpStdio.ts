// `npm run -s mcp`: Stepwise's task lists as a stdio MCP server, for agents that only
// speak stdio. While Stepwise runs with sharing on, every message is forwarded as it is
// to the running endpoint (found in the 0600 discovery file), so writes go through the
// app's one task writer and the client's own name is recorded. Otherwise the same tools
// are served read-only from the database, as the CLI reads it.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  isJSONRPCRequest,
  isJSONRPCNotification,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { openDatabase } from '../core/db/openDatabase';
import { DB_FILE, LATEST_VERSION } from '../core/db/databaseFile';
import { endpointProvesIdentity } from '../core/taskShare/shareIdentity';
import { upgradeNeededServer, UPGRADE_MESSAGE } from './upgradeNeeded';
import { createShareReader } from '../core/taskShare/shareReader';
import { createShareServer } from '../core/taskShare/shareTools';
import { Discovery, DISCOVERY_FILE } from '../core/taskShare/taskShareModule';

export interface StdioOptions {
  dataDir: string;
  version: string;
  stderr: (text: string) => void;
  /** The client's side (process.stdin and process.stdout unless a test passes its own). */
  stdin?: Readable;
  stdout?: Writable;
}

/** Only a loopback Stepwise endpoint is ever contacted. */
const LOCAL_ENDPOINT = /^http:\/\/127\.0\.0\.1:\d{1,5}\/mcp$/;

/** Whether the process that wrote the discovery file still runs (a crash leaves the file behind). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The running app's endpoint, when its discovery file names one that proves it is this
 * Stepwise (shareIdentity: it answers a challenge only the token's holder can) before the
 * token is sent anywhere. A file left by a crash, or a port someone else took, is ignored.
 */
export async function findRunningEndpoint(dataDir: string): Promise<Discovery | null> {
  let discovery: Discovery;
  try {
    const parsed = Discovery.safeParse(JSON.parse(fs.readFileSync(path.join(dataDir, DISCOVERY_FILE), 'utf8')));
    if (!parsed.success) return null;
    discovery = parsed.data;
  } catch {
    return null;
  }
  if (!LOCAL_ENDPOINT.test(discovery.url) || !isRunning(discovery.pid)) return null;
  return (await endpointProvesIdentity(discovery.url, discovery.token)) ? discovery : null;
}

/** The endpoint's answer to a request on a session it no longer has (evicted or reaped). */
const sessionGone = (error: unknown) => error instanceof StreamableHTTPError && error.code === 404;

/**
 * Pipes stdio to the endpoint and back; a failed send answers its request with the reason.
 * The endpoint ends a session that was idle for 60 s, or the longest-idle one when a 17th
 * client comes: the bridge then opens a new session itself, replaying its client's
 * `initialize` (whose answer the client already has), and sends the call again, so a
 * client that kept the bridge open for hours never sees it.
 */
async function forward(discovery: Discovery, options: StdioOptions): Promise<void> {
  const stdio = new StdioServerTransport(options.stdin, options.stdout);
  const done = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  /** Answers to the bridge's own requests (a replayed initialize), kept from the client. */
  const own = new Map<string, (message: JSONRPCMessage) => void>();
  let initialize: JSONRPCRequest | null = null;
  let initialized = false;
  let renewals = 0;
  const connect = () => {
    const transport = new StreamableHTTPClientTransport(new URL(discovery.url), {
      requestInit: { headers: { Authorization: `Bearer ${discovery.token}` } },
    });
    transport.onmessage = (message) => {
      const id = 'id' in message && typeof message.id === 'string' ? message.id : null;
      const mine = id === null ? undefined : own.get(id);
      if (mine) mine(message);
      else void stdio.send(message).catch(() => {});
    };
    transport.onerror = (error) => {
      // A session the endpoint ended is renewed on the next call, not reported.
      if (transport === remote && !sessionGone(error)) options.stderr(`stepwise mcp: ${error.message}\n`);
    };
    transport.onclose = () => {
      if (transport === remote) void stdio.close();
    };
    return transport;
  };
  let remote = connect();
  let renewing: Promise<void> | null = null;

  async function renew(): Promise<void> {
    const old = remote;
    remote = connect();
    await old.close().catch(() => {});
    await remote.start();
    if (!initialize) return;
    const id = `stepwise-bridge-initialize-${++renewals}`;
    const answered = new Promise<JSONRPCMessage>((resolve) => own.set(id, resolve));
    try {
      await remote.send({ ...initialize, id });
      const answer = await answered;
      if ('error' in answer) throw new Error(answer.error.message);
    } finally {
      own.delete(id);
    }
    if (initialized) await remote.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async function send(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initialize = message;
    if (isJSONRPCNotification(message) && message.method === 'notifications/initialized') initialized = true;
    if (renewing) await renewing.catch(() => {});
    const used = remote;
    try {
      await used.send(message);
    } catch (error) {
      if (!sessionGone(error) || !initialize || message === initialize) throw error;
      if (remote === used) renewing ??= renew().finally(() => (renewing = null));
      await renewing;
      await remote.send(message);
    }
  }

  stdio.onmessage = (message: JSONRPCMessage) => {
    send(message).catch((error: unknown) => {
      if (!isJSONRPCRequest(message)) return;
      const text = error instanceof Error ? error.message : String(error);
      void stdio.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32603, message: `Stepwise did not accept the call: ${text}` },
      });
    });
  };
  await remote.start();
  await stdio.start();
  const stopListening = endsWithClient(stdio, options.stdin ?? process.stdin);
  await done;
  stopListening();
  await remote.terminateSession().catch(() => {});
  await remote.close();
}

async function serveReadOnly(options: StdioOptions): Promise<number> {
  const file = path.join(options.dataDir, DB_FILE);
  if (!fs.existsSync(file)) {
    options.stderr(`stepwise mcp: no Stepwise database at ${file}. Start Stepwise once, or set STEPWISE_DATA_DIR.\n`);
    return 1;
  }
  const { db } = openDatabase(options.dataDir, { readonly: true });
  const found = db.pragma('user_version', { simple: true }) as number;
  const server =
    found < LATEST_VERSION
      ? upgradeNeededServer(options.version, found, LATEST_VERSION)
      : createShareServer({ reader: createShareReader(db), writer: null, version: options.version }).server.server;
  if (found < LATEST_VERSION)
    options.stderr(`stepwise mcp: ${UPGRADE_MESSAGE} (schema ${found} of ${LATEST_VERSION}).\n`);
  const stdio = new StdioServerTransport(options.stdin, options.stdout);
  const done = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(stdio);
  const stopListening = endsWithClient(stdio, options.stdin ?? process.stdin);
  await done;
  stopListening();
  db.close();
  return 0;
}

/**
 * The client closing our standard input, or the host ending us (SIGTERM, SIGINT, as most
 * hosts quit), ends the session: forwarded, the endpoint's session ends too (DELETE), so
 * the bridge never holds a place there after it is gone.
 */
function endsWithClient(stdio: StdioServerTransport, stdin: Readable): () => void {
  const end = () => void stdio.close();
  stdin.once('end', end);
  process.once('SIGTERM', end);
  process.once('SIGINT', end);
  return () => {
    stdin.off('end', end);
    process.off('SIGTERM', end);
    process.off('SIGINT', end);
  };
}

export async function runMcpStdio(options: StdioOptions): Promise<number> {
  const running = await findRunningEndpoint(options.dataDir);
  if (running) {
    await forward(running, options);
    return 0;
  }
  return serveReadOnly(options);
}
