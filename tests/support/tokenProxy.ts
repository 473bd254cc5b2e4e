// A loopback proxy that adds the task-share token to every request, for clients that
// cannot send headers (the MCP conformance runner). It passes everything else through,
// an unexpected Host or an Origin included, and records every status it relays.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startTokenProxy(target: { url: string; token: string }) {
  const upstream = new URL(target.url);
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${target.token}` };
    // Its own address becomes the endpoint's; any other Host goes through as it came.
    if (headers.host === `127.0.0.1:${port}` || headers.host === `localhost:${port}`) headers.host = upstream.host;
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        statuses.push(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    statuses,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
