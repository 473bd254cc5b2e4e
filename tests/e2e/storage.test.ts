// The host's data directory, as a user meets it: a second Stepwise on the same directory
// is refused with one clear line while the first keeps serving; a database the user cannot
// read, or a read-only directory, is reported as such and never moved aside; the files
// are private after a start under umask 022.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { spawnSync } from 'node:child_process';
import { HOST_ENTRY, makeDataDir, runHostToExit, startHostProcess, type HostProcess } from './support/app';

const posix = process.platform !== 'win32';
/** Root ignores permission bits: run permission cases as `nobody` then. */
const asRoot = posix && process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };
/**
 * Whether `nobody` can run the built host from where this checkout lives: a checkout
 * inside a private directory (mode 0700) is out of its reach, and those cases are skipped.
 */
const nobodyCanRun =
  !asRoot ||
  spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(HOST_ENTRY)}, 4)`], NOBODY)
    .status === 0;

async function call(
  host: HostProcess,
  method: string,
  params: unknown,
): Promise<{ result?: unknown; error?: unknown }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
    headers: { Origin: `http://127.0.0.1:${host.port}` },
  });
  try {
    // Listening before the socket opens: pushed events and the reply may arrive together.
    const reply = new Promise<{ id?: number; result?: unknown; error?: unknown }>((resolve, reject) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { id?: number };
        if (frame.id === 1) resolve(frame);
      });
      ws.once('error', reject);
    });
    await new Promise<void>((resolve) => ws.once('open', () => resolve()));
    ws.send(JSON.stringify({ id: 1, method, params }));
    return await reply;
  } finally {
    ws.close();
  }
}

/** A data dir the test user owns: `nobody` when the suite runs as root. */
function userDataDir(): string {
  const dir = makeDataDir();
  if (asRoot) fs.chownSync(dir, NOBODY.uid, NOBODY.gid);
  return dir;
}

describe('the data directory', () => {
  it('refuses a second host on the same data directory, and the first keeps serving', async () => {
    const dataDir = makeDataDir();
    const first = await startHostProcess({ dataDir });
    try {
      const second = await runHostToExit({ dataDir });
      expect(second.code).toBe(1);
      expect(second.stdout).toBe('');
      expect(second.stderr).toMatch(
        new RegExp(
          `^stepwise: Another Stepwise \\(the browser host, process ${first.child.pid}, started [^)]+\\) is already using the data directory ${dataDir}\\. Close it and start again, or use another data directory\\.\\n$`,
        ),
      );
      const created = await call(first, 'conversations:create', { title: 'After the refusal' });
      expect(created.result).toMatchObject({ title: 'After the refusal' });
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // The first one's clean exit lets the next one in, with everything kept.
    const third = await startHostProcess({ dataDir });
    try {
      const listed = await call(third, 'conversations:list', {});
      expect(listed.result).toMatchObject({ items: [expect.objectContaining({ title: 'After the refusal' })] });
    } finally {
      await third.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves the files private (0700 directory, 0600 files) after a start under umask 022', async () => {
    const dataDir = path.join(makeDataDir(), 'fresh');
    const previous = process.umask(0o022);
    let host: HostProcess | null = null;
    try {
      host = await startHostProcess({ dataDir });
      await call(host, 'conversations:create', { title: 'Private' });
      await call(host, 'settings:update', { patch: { temperature: 0.3 } });
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      for (const name of fs.readdirSync(dataDir)) {
        expect([name, fs.statSync(path.join(dataDir, name)).mode & 0o777]).toEqual([name, 0o600]);
      }
    } finally {
      process.umask(previous);
      await host?.stop();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });

  it.skipIf(!posix || !nobodyCanRun)('says when the database cannot be read, and leaves it where it is', async () => {
    const dataDir = userDataDir();
    const user = asRoot ? NOBODY : undefined;
    try {
      const first = await startHostProcess({ dataDir, user });
      expect(await first.stop()).toBe(0);
      const file = path.join(dataDir, 'stepwise.db');
      fs.chmodSync(file, 0o000);
      const { code, stderr } = await runHostToExit({ dataDir, user });
      expect(code).toBe(1);
      expect(stderr).toMatch(
        new RegExp(`^stepwise: Stepwise cannot read ${file} \\(.*\\); check the file's permissions`),
      );
      expect(fs.readdirSync(dataDir).some((f) => f.includes('.corrupt-'))).toBe(false);
      expect(fs.existsSync(file)).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!posix || !nobodyCanRun)('says when the data directory is read-only, and changes nothing', async () => {
    const dataDir = userDataDir();
    const user = asRoot ? NOBODY : undefined;
    try {
      const first = await startHostProcess({ dataDir, user });
      expect(await first.stop()).toBe(0);
      const before = fs.readdirSync(dataDir).sort();
      fs.chmodSync(dataDir, 0o500);
      const { code, stderr } = await runHostToExit({ dataDir, user });
      expect(code).toBe(1);
      expect(stderr).toMatch(
        new RegExp(
          `^stepwise: Stepwise cannot write to its data directory ${dataDir} \\(.*\\)\\. Make it writable, or use another data directory\\. Nothing was changed\\.\\n$`,
        ),
      );
      fs.chmodSync(dataDir, 0o700);
      expect(fs.readdirSync(dataDir).sort()).toEqual(before);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
