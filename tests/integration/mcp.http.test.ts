// Remote MCP servers: Streamable HTTP with headers, and the fallback to the older
// HTTP+SSE transport for a server that only speaks that. Everything on 127.0.0.1.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { startHttpEverything, writeMcpConfig } from '../support/mcpFixtures';

let server: ScriptedServer;
let h: ChatHarness | null = null;
type Remote = Awaited<ReturnType<typeof startHttpEverything>>;
let http: Remote;
let sse: Remote;
let root = '';

// One server per transport for the file: starting the everything server takes seconds.
beforeAll(async () => {
  [http, sse] = await Promise.all([
    startHttpEverything('http', { AUTH: 'secret-token-1234' }),
    startHttpEverything('sse'),
  ]);
});
afterAll(async () => {
  await Promise.all([http?.close(), sse?.close()]);
});

afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
  h = null;
});

async function echoThrough(entry: Record<string, unknown>) {
  root = makeTempDir('stepwise-mcp-http-');
  writeMcpConfig(path.join(root, 'data'), { remote: { ...entry, trusted: true } });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir: path.join(root, 'data') });
  server.push(
    { toolCalls: [{ id: 'call_echo', name: 'mcp__remote__echo', arguments: '{"message":"over http"}' }] },
    { text: 'Done.' },
  );
  const conversation = await h.newConversation('Remote');
  await h.sendAndWait(conversation.id, 'Echo.');
  return h.messages(conversation.id).find((m) => m.role === 'tool')!.content;
}

describe('remote MCP servers', () => {
  it('calls a Streamable HTTP server, sending the configured headers', async () => {
    expect(await echoThrough({ url: http.url, headers: { Authorization: 'Bearer secret-token-1234' } })).toContain(
      'over http',
    );
    const view = (await h!.call('mcp:get', {})).servers[0];
    expect(view).toMatchObject({ transport: 'http', state: 'ready', headers: { Authorization: 'Bearer ••••1234' } });
  });

  it('reports a 401 (here a rejected header) as a sign-in, with no fallback to the older transport', async () => {
    const result = await echoThrough({ url: http.url, headers: { Authorization: 'Bearer wrong-token-0000' } });
    // It never became ready, so the model was not offered its tools.
    expect(result).toMatch(/^Unknown tool "mcp__remote__echo"/);
    const view = h!.core.mcp.state().servers[0];
    expect(view).toMatchObject({ state: 'error', error: 'This server needs you to sign in.', signIn: 'needed' });
    // Not "SSE error: Non-200 status code (404)": the older transport was never tried.
    expect(view.stderr.join('\n')).not.toMatch(/SSE/);
  });

  it('falls back to HTTP+SSE for a server that only speaks the older transport', async () => {
    expect(await echoThrough({ url: sse.url })).toContain('over http');
  });

  it('uses HTTP+SSE directly for type "sse"', async () => {
    expect(await echoThrough({ type: 'sse', url: sse.url })).toContain('over http');
  });
});
