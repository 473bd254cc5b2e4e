// The reference "everything" server over HTTP, bound to 127.0.0.1 only (its own CLI
// listens on every interface). `node httpServer.mjs http` serves Streamable HTTP at /mcp;
// `node httpServer.mjs sse` serves only the older HTTP+SSE transport (GET /sse, POST
// /message). Prints `listening <port>` once ready; `AUTH` makes it demand that bearer token.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';

const mode = process.argv[2] ?? 'http';
const auth = process.env.AUTH;
const sessions = new Map();

const server = http.createServer(async (req, res) => {
  if (auth && req.headers.authorization !== `Bearer ${auth}`) {
    res.writeHead(401).end('unauthorized');
    return;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (mode === 'http' && url.pathname === '/mcp') {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const { server: mcp } = createServer();
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      await mcp.connect(transport);
    }
    await transport.handleRequest(req, res);
    return;
  }
  if (mode === 'sse' && req.method === 'GET' && url.pathname === '/sse') {
    const transport = new SSEServerTransport('/message', res);
    sessions.set(transport.sessionId, transport);
    const { server: mcp } = createServer();
    await mcp.connect(transport);
    return;
  }
  if (mode === 'sse' && req.method === 'POST' && url.pathname === '/message') {
    const transport = sessions.get(url.searchParams.get('sessionId'));
    if (transport) await transport.handlePostMessage(req, res);
    else res.writeHead(404).end('no session');
    return;
  }
  res.writeHead(404).end('not found');
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
