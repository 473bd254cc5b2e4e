// Crash safety: kill the browser host with SIGKILL while a reply streams, start it again
// on the same data dir. The user's message is intact, the partial reply is there marked
// interrupted (with Retry offered), and SQLite's integrity check passes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HOST_ENTRY = path.join(ROOT, 'out/main/host.js');
const READY = /Stepwise is running at http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/;

interface Host {
  child: ChildProcess;
  port: number;
  token: string;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startHost(dataDir: string, server: ScriptedServer): Promise<Host> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(OPENAI_|STEPWISE_)/.test(key)) env[key] = value;
  Object.assign(env, { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-crash-test', STEPWISE_MODEL: 'scripted' });
  const child = spawn(process.execPath, [HOST_ENTRY, '--port', '0', '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`host did not start: ${out}${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = READY.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), token: match[2] });
      }
    });
    child.on('exit', (code) => reject(new Error(`host exited (${code}): ${out}${err}`)));
  });
}

/** A WebSocket client of the contract: `call(method, params)` resolves with the result. */
async function connect(host: Host) {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
    headers: { Origin: `http://127.0.0.1:${host.port}` },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  cleanups.push(() => ws.close());
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
    if (frame.id === undefined) return;
    const waiter = pending.get(frame.id);
    pending.delete(frame.id);
    if (frame.error) waiter?.reject(new Error(frame.error.message));
    else waiter?.resolve(frame.result);
  });
  return {
    call<T>(method: string, params: unknown): Promise<T> {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    },
  };
}

interface StoredMessage {
  role: string;
  content: string;
  status: string;
}

/** Reads the database the way another process would, while the host runs. */
async function waitForSavedText(dataDir: string, minLength: number): Promise<void> {
  const file = path.join(dataDir, 'stepwise.db');
  for (;;) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT length(content) AS n FROM messages WHERE role = 'assistant'").get() as
        | { n: number }
        | undefined;
      if (row && row.n >= minLength) return;
    } finally {
      db.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a crash while a reply streams', () => {
  it('keeps the message, marks the partial reply interrupted, and leaves a sound database', async () => {
    const words = Array.from({ length: 600 }, (_, i) => `word${i} `);
    const server = await startScriptedServer({ script: [{ text: words, chunkDelayMs: 25 }] });
    cleanups.push(() => server.close());
    const dataDir = makeTempDir('stepwise-crash-');
    cleanups.push(() => removeDir(dataDir));

    const first = await startHost(dataDir, server);
    const api = await connect(first);
    const conversation = await api.call<{ id: string }>('conversations:create', { title: 'Crash test' });
    await api.call('messages:send', { conversationId: conversation.id, content: 'Tell me a very long story' });
    // Wait until the host has saved some streamed text, then pull the plug.
    await waitForSavedText(dataDir, 30);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    const second = await startHost(dataDir, server);
    const again = await connect(second);
    const { items } = await again.call<{ items: StoredMessage[] }>('messages:list', {
      conversationId: conversation.id,
    });
    expect(items.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(items[0]).toMatchObject({ content: 'Tell me a very long story', status: 'complete' });
    expect(items[1].status).toBe('interrupted');
    expect(items[1].content.length).toBeGreaterThanOrEqual(30);
    expect(words.join('').startsWith(items[1].content)).toBe(true);
    const status = await again.call<{ running: boolean; error: { retryable: boolean } | null }>('chat:status', {
      conversationId: conversation.id,
    });
    expect(status).toMatchObject({ running: false, error: { retryable: true } });

    const check = new Database(path.join(dataDir, 'stepwise.db'), { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }
  });
});
