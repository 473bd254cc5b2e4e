// MCP servers for tests: the reference servers from node_modules and our own small test
// server, launched through their bins with the project's Node, on temp directories.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startChatCore, type ChatHarness } from './chatHarness';
import { startScriptedServer, type ScriptedServer } from './scriptedServer';
import { makeTempDir, removeDir } from './tempDir';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const NODE = process.execPath;
export const EVERYTHING_BIN = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_BIN = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const TEST_SERVER = path.join(root, 'tests/support/mcp/testServer.mjs');
export const HTTP_SERVER = path.join(root, 'tests/support/mcp/httpServer.mjs');
export const LONG_TOOL = `long_${'x'.repeat(95)}`;

export type ServerEntry = Record<string, unknown>;

export const everything = (extra: ServerEntry = {}): ServerEntry => ({
  command: NODE,
  args: [EVERYTHING_BIN, 'stdio'],
  ...extra,
});
export const filesystem = (dir: string, extra: ServerEntry = {}): ServerEntry => ({
  command: NODE,
  args: [FILESYSTEM_BIN, dir],
  ...extra,
});
export const testServer = (extra: ServerEntry = {}): ServerEntry => ({ command: NODE, args: [TEST_SERVER], ...extra });

export function writeMcpConfig(dataDir: string, servers: Record<string, ServerEntry>, key = 'mcpServers'): string {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'mcp.json');
  fs.writeFileSync(file, JSON.stringify({ [key]: servers }, null, 2));
  return file;
}

/** Whether a process id is still alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The everything server over HTTP on 127.0.0.1 (`http`: Streamable HTTP at /mcp; `sse`: the older transport at /sse). */
export async function startHttpEverything(mode: 'http' | 'sse', env: Record<string, string> = {}) {
  const { spawn } = await import('node:child_process');
  const child = spawn(NODE, [HTTP_SERVER, mode], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`HTTP test server exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: mode === 'http' ? `${base}/mcp` : `${base}/sse`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * For a test file of MCP tests through the chat core: `start(servers)` writes `mcp.json`
 * with `servers` into a fresh data dir, starts a scripted model and a core on it; both are
 * closed and the directory removed after each test.
 */
export function mcpCorePerTest(prefix: string) {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async function start(
    servers: Record<string, ServerEntry>,
  ): Promise<{ server: ScriptedServer; h: ChatHarness; dataDir: string }> {
    const dir = makeTempDir(prefix);
    cleanups.push(() => removeDir(dir));
    const dataDir = path.join(dir, 'data');
    writeMcpConfig(dataDir, servers);
    const server = await startScriptedServer();
    cleanups.push(() => server.close());
    const h = startChatCore(server, { dataDir });
    cleanups.push(() => h.close());
    return { server, h, dataDir };
  };
}
