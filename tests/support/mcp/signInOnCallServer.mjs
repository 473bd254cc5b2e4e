// A Streamable HTTP MCP server on 127.0.0.1 that lists its tool freely but answers every
// tools/call with 401, as a server does whose sign-in is needed for the call itself
// (tests/e2e/mcp.steps.test.ts). Prints `listening <port>` once ready.
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

function mcp() {
  const server = new McpServer({ name: 'sign-in-on-call', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Says who the user is (needs a sign-in).' }, async () => ({
    content: [{ type: 'text', text: 'you' }],
  }));
  return server;
}

const http401 = (res) => res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end('sign in first');

const server = http.createServer(async (req, res) => {
  if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return void res.writeHead(404).end();
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return void res.writeHead(400).end('not JSON');
  }
  if ([body].flat().some((m) => m?.method === 'tools/call')) return http401(res);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await mcp().connect(transport);
  await transport.handleRequest(req, res, body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
