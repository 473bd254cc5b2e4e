// One live connection to one MCP server through the official SDK client: stdio, or
// Streamable HTTP with a fallback to the older HTTP+SSE transport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from './mcpConfig';

export const STDERR_LINES = 20;

export interface ConnectionHooks {
  /** The server said its tool list changed. */
  onToolsChanged(): void;
  /** The connection ended without us closing it (crash, server exit, network). */
  onLost(reason: string): void;
  onStderr(line: string): void;
  /** Folders the server may work in (`roots/list`). */
  roots(): { uri: string; name?: string }[];
  /** Answers `elicitation/create`; absent: the capability is not offered. */
  elicit?: (request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface Connection {
  pid: number | null;
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>;
  close(): Promise<void>;
}

function newClient(version: string, hooks: ConnectionHooks): Client {
  const client = new Client(
    { name: 'Stepwise', version },
    {
      capabilities: { roots: { listChanged: true }, ...(hooks.elicit ? { elicitation: { form: {} } } : {}) },
      listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => hooks.onToolsChanged() } },
    },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: hooks.roots() }));
  const elicit = hooks.elicit;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(request.params, extra.signal));
  return client;
}

function stdioTransport(config: ServerConfig, hooks: ConnectionHooks): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: config.env,
    cwd: config.cwd || undefined,
    stderr: 'pipe',
  });
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) hooks.onStderr(line);
  });
  return transport;
}

async function connectWith(client: Client, transport: Transport, timeoutMs: number): Promise<void> {
  await client.connect(transport, { timeout: timeoutMs });
}

/** Starts (or reaches) the server and completes the MCP handshake. */
export async function openConnection(
  config: ServerConfig,
  hooks: ConnectionHooks,
  options: { version: string; connectTimeoutMs: number },
): Promise<Connection> {
  let client = newClient(options.version, hooks);
  let transport: Transport;
  let pid: number | null = null;
  if (config.transport === 'stdio') {
    const stdio = stdioTransport(config, hooks);
    transport = stdio;
    await connectWith(client, stdio, options.connectTimeoutMs).catch(async (error: unknown) => {
      await stdio.close().catch(() => undefined);
      throw error;
    });
    pid = stdio.pid;
  } else {
    const url = new URL(config.url);
    const requestInit = { headers: config.headers };
    if (config.transport === 'http') {
      transport = new StreamableHTTPClientTransport(url, { requestInit });
      try {
        await connectWith(client, transport, options.connectTimeoutMs);
      } catch {
        // A server from before 2025-03-26 only speaks HTTP+SSE: try that before giving up.
        await transport.close().catch(() => undefined);
        client = newClient(options.version, hooks);
        transport = new SSEClientTransport(url, { requestInit });
        await connectWith(client, transport, options.connectTimeoutMs);
      }
    } else {
      transport = new SSEClientTransport(url, { requestInit });
      await connectWith(client, transport, options.connectTimeoutMs);
    }
  }

  let closing = false;
  client.onclose = () => {
    if (!closing) hooks.onLost(config.transport === 'stdio' ? 'the server process exited' : 'the connection was closed');
  };

  return {
    pid,
    async listTools() {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: options.connectTimeoutMs });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async callTool(name, args, call) {
      const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, {
        signal: call.signal,
        timeout: call.timeoutMs,
        onprogress: call.onProgress,
        resetTimeoutOnProgress: false,
      });
      return result as CallToolResult;
    },
    async close() {
      closing = true;
      // stdio: the SDK closes stdin, then SIGTERM, then SIGKILL after a grace period.
      await client.close().catch(() => undefined);
    },
  };
}
