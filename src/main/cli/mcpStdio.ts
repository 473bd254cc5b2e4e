// `npm run -s mcp`: Stepwise's task lists as a stdio MCP server, for agents that only
// speak stdio. While Stepwise runs with sharing on, every message is forwarded as it is
// to the running endpoint (found in the 0600 discovery file), so writes go through the
// app's one task writer and the client's own name is recorded. Otherwise the same tools
// are served read-only from the database, as the CLI reads it.
import fs from 'node:fs';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DB_FILE, openDatabase } from '../core/db/openDatabase';
import { createShareReader } from '../core/taskShare/shareReader';
import { createShareServer } from '../core/taskShare/shareTools';
import { Discovery, DISCOVERY_FILE } from '../core/taskShare/taskShareModule';

export interface StdioOptions {
  dataDir: string;
  version: string;
  stderr: (text: string) => void;
}

/** The running app's endpoint, when its discovery file names one that answers. */
export async function findRunningEndpoint(dataDir: string): Promise<Discovery | null> {
  let discovery: Discovery;
  try {
    const parsed = Discovery.safeParse(JSON.parse(fs.readFileSync(path.join(dataDir, DISCOVERY_FILE), 'utf8')));
    if (!parsed.success) return null;
    discovery = parsed.data;
  } catch {
    return null;
  }
  try {
    // Any HTTP answer (a 401 without the token) means it is there; a refused connection means it is not.
    await fetch(discovery.url, { method: 'GET', signal: AbortSignal.timeout(2000) });
    return discovery;
  } catch {
    return null;
  }
}

/** Pipes stdio to the endpoint and back; a failed send answers its request with the reason. */
async function forward(discovery: Discovery, options: StdioOptions): Promise<void> {
  const stdio = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(new URL(discovery.url), {
    requestInit: { headers: { Authorization: `Bearer ${discovery.token}` } },
  });
  const done = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  remote.onmessage = (message) => void stdio.send(message).catch(() => {});
  remote.onerror = (error) => options.stderr(`stepwise mcp: ${error.message}\n`);
  remote.onclose = () => void stdio.close();
  stdio.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: unknown) => {
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
  endsWithStdin(stdio);
  await done;
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
  const { server } = createShareServer({ reader: createShareReader(db), writer: null, version: options.version });
  const stdio = new StdioServerTransport();
  await server.connect(stdio);
  const done = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  endsWithStdin(stdio);
  await done;
  db.close();
  return 0;
}

/** The client closing our standard input ends the session (the SDK transport does not watch for it). */
function endsWithStdin(stdio: StdioServerTransport) {
  process.stdin.once('end', () => void stdio.close());
}

export async function runMcpStdio(options: StdioOptions): Promise<number> {
  const running = await findRunningEndpoint(options.dataDir);
  if (running) {
    await forward(running, options);
    return 0;
  }
  return serveReadOnly(options);
}
