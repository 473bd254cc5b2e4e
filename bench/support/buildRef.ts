// Builds another revision for an A/B run: `git archive` of the ref into a temporary
// directory (no worktree is registered, nothing of the repository changes), the shared
// node_modules linked in, then its own `scripts/build.mjs`. With STEPWISE_BENCH_KEEP_REF=1
// the build is kept (in <tmp>/stepwise-ab-<commit>) and reused by the next run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function buildRef(root: string, ref: string): { dir: string; name: string; remove(): void } {
  const commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  const keep = process.env.STEPWISE_BENCH_KEEP_REF === '1';
  const dir = keep
    ? path.join(os.tmpdir(), `stepwise-ab-${commit}`)
    : fs.mkdtempSync(path.join(os.tmpdir(), `stepwise-ab-${commit}-`));
  const remove = () => (keep ? undefined : fs.rmSync(dir, { recursive: true, force: true }));
  const name = ref === commit ? commit : `${ref} (${commit})`;
  if (keep && fs.existsSync(path.join(dir, 'out', '.build-stamp'))) return { dir, name, remove };
  fs.mkdirSync(dir, { recursive: true });
  try {
    const archive = path.join(dir, 'source.tar');
    execFileSync('git', ['archive', '--format=tar', '-o', archive, commit], { cwd: root });
    execFileSync('tar', ['-xf', archive, '-C', dir]);
    fs.rmSync(archive);
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, [path.join(dir, 'scripts/build.mjs')], { cwd: dir, stdio: 'ignore' });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, name, remove };
}
