// The idle limit holds from a socket's first byte, whenever it connects: 20 connections
// opened the moment the host prints its address, sending nothing, are all closed by the
// host within 31 s (the 30 s idle limit, as the README promises).
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startHostChild } from '../support/hostChild';
import { makeTempDir, removeDir } from '../support/tempDir';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('closes every silent connection opened at once after the address line', { timeout: 45_000 }, async () => {
  const dataDir = makeTempDir('stepwise-startup-sockets-');
  cleanups.push(() => removeDir(dataDir));
  const host = await startHostChild(dataDir, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
  cleanups.push(() => host.kill());
  const opened = Date.now();
  const sockets = Array.from({ length: 20 }, () => net.connect({ host: '127.0.0.1', port: host.port }));
  cleanups.push(() => sockets.forEach((s) => s.destroy()));
  const closes = sockets.map(
    (socket) =>
      new Promise<number>((resolve) => {
        socket.on('error', () => undefined);
        // `end` is the host closing its side: the client never closes first.
        socket.once('end', () => resolve(Date.now() - opened));
      }),
  );
  const closedAfter = await Promise.all(closes);
  expect(closedAfter.filter((ms) => ms > 31_000)).toEqual([]);
  expect(host.child.exitCode).toBeNull();
});
