// `npm run serve` when its host dies under it (kill -9, the OOM killer): the wrapper does
// not exit silently as if all were well; it prints one line and exits non-zero.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeDataDir, SERVE_SCRIPT, startHostProcess } from './support/app';

/** The pids of `parent`'s children, read from /proc (Linux). */
function childrenOf(parent: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] === String(parent);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

describe('npm run serve', () => {
  it.runIf(process.platform === 'linux')('prints one line and exits non-zero when its host is killed', async () => {
    const dataDir = makeDataDir();
    const wrapper = await startHostProcess({ dataDir, script: SERVE_SCRIPT });
    try {
      const [host] = childrenOf(wrapper.child.pid!);
      expect(host).toBeGreaterThan(0);
      const exited = new Promise<number | null>((resolve) => wrapper.child.once('exit', resolve));
      process.kill(host, 'SIGKILL');
      expect(await exited).toBe(128 + 9);
      expect(wrapper.stderr()).toBe(`Stepwise's host (pid ${host}) was ended by SIGKILL; it is no longer running.\n`);
    } finally {
      await wrapper.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits quietly with the host when it is stopped', async () => {
    const dataDir = makeDataDir();
    const wrapper = await startHostProcess({ dataDir, script: SERVE_SCRIPT });
    try {
      expect(await wrapper.stop()).toBe(0);
      expect(wrapper.stderr()).toBe('');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
