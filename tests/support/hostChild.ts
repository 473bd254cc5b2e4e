// A browser host in a child process and a WebSocket client of its contract, for tests that
// kill the host with SIGKILL and start it again on the same data. It runs the built host
// (`out/main/host.js`, built by the project's global setup, tests/e2e/buildOnce.ts): a start
// from source through tsx took several times as long, and these tests start it often.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import type { CallName, CallRequest, CallResponse, EventName, EventPayload } from '../../src/shared/ipc';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = path.join(ROOT, 'out/main/host.js');
const READY = /Stepwise is running at http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/;

export interface HostChild {
  child: ChildProcess;
  port: number;
  token: string;
  /** Everything the host wrote to stderr so far. */
  stderr(): string;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** Resolves with the signal that ended the process (null: it exited by itself). */
  exited: Promise<NodeJS.Signals | null>;
}

/** Starts the host on `dataDir`; `env` is added to a copy of this process's environment without OPENAI_/STEPWISE_ keys. */
export function startHostChild(dataDir: string, env: Record<string, string>): Promise<HostChild> {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(OPENAI_|STEPWISE_)/.test(key)) childEnv[key] = value;
  Object.assign(childEnv, env);
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first.`);
  const child = spawn(process.execPath, [ENTRY, '--port', '0', '--data-dir', dataDir], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  const gone = exited.then(() => undefined);
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await gone;
  };
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = READY.exec(out);
      if (match) resolve({ child, port: Number(match[1]), token: match[2], stderr: () => err, kill, exited });
    });
    child.once('exit', (code) => reject(new Error(`host exited (${code}): ${out}${err}`)));
  });
}

export interface HostClient {
  call<N extends CallName>(name: N, params: CallRequest<N>): Promise<CallResponse<N>>;
  /** Resolves with the first pushed event from now on that matches. */
  next<E extends EventName>(event: E, match?: (payload: EventPayload<E>) => boolean): Promise<EventPayload<E>>;
  close(): void;
}

/** A WebSocket client of the contract: `call` resolves with the result or rejects with the error message. */
export async function connectHost(host: Pick<HostChild, 'port' | 'token'>): Promise<HostClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
    headers: { Origin: `http://127.0.0.1:${host.port}` },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const watchers = new Set<(event: string, payload: unknown) => void>();
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      event?: string;
      payload?: unknown;
    };
    if (frame.event !== undefined) {
      for (const watch of watchers) watch(frame.event, frame.payload);
      return;
    }
    if (frame.id === undefined) return;
    const waiter = pending.get(frame.id);
    pending.delete(frame.id);
    if (frame.error) waiter?.reject(new Error(frame.error.message));
    else waiter?.resolve(frame.result);
  });
  return {
    call<N extends CallName>(name: N, params: CallRequest<N>): Promise<CallResponse<N>> {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method: name, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    },
    next<E extends EventName>(
      event: E,
      match: (payload: EventPayload<E>) => boolean = () => true,
    ): Promise<EventPayload<E>> {
      return new Promise((resolve) => {
        const watch = (name: string, payload: unknown) => {
          if (name !== event || !match(payload as EventPayload<E>)) return;
          watchers.delete(watch);
          resolve(payload as EventPayload<E>);
        };
        watchers.add(watch);
      });
    },
    close: () => ws.close(),
  };
}

/** Reads the host's database the way another process would, while the host runs. */
export function readDb<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'stepwise.db'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Whether SQLite finds the database sound. */
export function integrityOk(dataDir: string): boolean {
  return readDb(dataDir, (db) => db.pragma('integrity_check', { simple: true }) === 'ok');
}
