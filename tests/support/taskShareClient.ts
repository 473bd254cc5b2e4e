// Helpers for task-share tests: a core with sharing on at a free port, and a real MCP
// client over Streamable HTTP with the token from "Copy configuration".
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A port nothing listens on right now (the OS picks it, then it is let go). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface ShareConfig {
  url: string;
  token: string;
}

/** The url and token out of the copied `mcpServers` JSON. */
export function parseConfiguration(json: string): ShareConfig {
  const parsed = JSON.parse(json) as { mcpServers: { stepwise: { url: string; headers: { Authorization: string } } } };
  const entry = parsed.mcpServers.stepwise;
  return { url: entry.url, token: entry.headers.Authorization.replace(/^Bearer /, '') };
}

export async function connectClient(config: ShareConfig, name = 'test-client', headers: Record<string, string> = {}) {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: { Authorization: `Bearer ${config.token}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** Ends the session on the server too (DELETE), so it gives up its place at once. */
export async function closeClient(client: Client): Promise<void> {
  const transport = client.transport;
  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
  await client.close();
}

/** The text of a tool result, and whether it is an error. */
export function resultText(result: unknown): { text: string; isError: boolean } {
  const r = result as CallToolResult;
  const first = r.content[0];
  return { text: first?.type === 'text' ? first.text : '', isError: r.isError === true };
}

/** A tool call's JSON answer (fails the test with the error text otherwise). */
export async function callJson<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const { text, isError } = resultText(await client.callTool({ name, arguments: args }));
  if (isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text) as T;
}
