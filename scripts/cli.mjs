// `npm run cli`: builds if needed (quietly, so standard output carries only the export),
// then runs the command line with the given arguments.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { build, buildIsFresh } from './build.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (!buildIsFresh()) {
  try {
    build({ quiet: true });
  } catch {
    process.exit(1);
  }
}
const child = spawn(process.execPath, [path.join(root, 'out/main/cli.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
