// Remote MCP servers: Streamable HTTP with headers, and the fallback to the older
// HTTP+SSE transport for a server that only speaks that. Everything on 127.0.0.1.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { startHttpEverything, writeMcpConfig } from '../support/mcpFixtures';

let server: ScriptedServer;
let h: ChatHarness | null = null;
let remote: Awaited<ReturnType<typeof startHttpEverything>> | null = null;
let root = '';

afterEach(async () => {
  await h?.close();
  await server?.close();
  await remote?.close();
  if (root) removeDir(root);
  h = null;
  remote = null;
});

async function echoThrough(entry: Record<string, unknown>) {
  root = makeTempDir('stepwise-mcp-http-');
  writeMcpConfig(path.join(root, 'data'), { remote: { ...entry, trusted: true } });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir: path.join(root, 'data') });
  server.push({ toolCalls: [{ id: 'call_echo', name: 'mcp__remote__echo', arguments: '{"message":"over http"}' }] }, { text: 'Done.' });
  const conversation = await h.newConversation('Remote');
  await h.sendAndWait(conversation.id, 'Echo.');
  return h.messages(conversation.id).find((m) => m.role === 'tool')!.content;
}

describe('remote MCP servers', () => {
  it('calls a Streamable HTTP server, sending the configured headers', async () => {
    remote = await startHttpEverything('http', { AUTH: 'secret-token-1234' });
    expect(await echoThrough({ url: remote.url, headers: { Authorization: 'Bearer secret-token-1234' } })).toContain('over http');
    const view = (await h!.call('mcp:get', {})).servers[0];
    expect(view).toMatchObject({ transport: 'http', state: 'ready', headers: { Authorization: 'Bearer ••••1234' } });
  });

  it('reports a rejected header as an error with the reason', async () => {
    remote = await startHttpEverything('http', { AUTH: 'secret-token-1234' });
    const result = await echoThrough({ url: remote.url, headers: { Authorization: 'Bearer wrong-token-0000' } });
    // It never became ready, so the model was not offered its tools.
    expect(result).toMatch(/^Unknown tool "mcp__remote__echo"/);
    const view = h!.core.mcp.state().servers[0];
    expect(view.state).toBe('error');
    expect(view.error).toMatch(/remote could not start/);
  });

  it('falls back to HTTP+SSE for a server that only speaks the older transport', async () => {
    remote = await startHttpEverything('sse');
    expect(await echoThrough({ url: remote.url })).toContain('over http');
  });

  it('uses HTTP+SSE directly for type "sse"', async () => {
    remote = await startHttpEverything('sse');
    expect(await echoThrough({ type: 'sse', url: remote.url })).toContain('over http');
  });
});
