// Remote MCP servers behind OAuth for tests, all on this machine: the SDK's own example
// (a Streamable HTTP server with a demo authorization server that signs the user in at
// once), and a stand-in for the browser that follows the authorization page's redirects.
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE } from './mcpFixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));
const OAUTH_EXAMPLE = path.join(
  root,
  'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js',
);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The SDK's example server with `--oauth --oauth-strict`: tokens must be issued for it. */
export async function startOAuthExample() {
  const [mcpPort, authPort] = [await freePort(), await freePort()];
  const child = spawn(NODE, [OAUTH_EXAMPLE, '--oauth', '--oauth-strict'], {
    env: { ...process.env, MCP_PORT: String(mcpPort), MCP_AUTH_PORT: String(authPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const seen = () => out.includes('MCP Streamable HTTP Server listening') && out.includes('Authorization Server');
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (seen()) resolve();
    });
    child.once('exit', (code) => reject(new Error(`OAuth example exited with ${code}: ${out}`)));
  });
  return {
    url: `http://localhost:${mcpPort}/mcp`,
    authUrl: `http://localhost:${authPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** What a browser does with the authorization page: follows its redirects and says where it ended. */
export async function browse(url: string): Promise<{ status: number; url: string; text: string }> {
  const response = await fetch(url);
  return { status: response.status, url: response.url, text: await response.text() };
}

/**
 * A protected resource whose authorization server accepts connections and never answers:
 * the server answers 401, its metadata names the silent one.
 */
export async function startSilentAuthServer() {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
  const resource = http.createServer((request, response) => {
    const base = `http://127.0.0.1:${(resource.address() as net.AddressInfo).port}`;
    if (request.url?.startsWith('/.well-known/oauth-protected-resource')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [silentUrl] }));
      return;
    }
    response.writeHead(401, {
      'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    });
    response.end();
  });
  await new Promise<void>((resolve) => resource.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(resource.address() as net.AddressInfo).port}/mcp`,
    close: async () => {
      resource.closeAllConnections();
      await new Promise((resolve) => resource.close(resolve));
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    },
  };
}
