// Electron's binary is not downloaded by `npm ci` (allowScripts: electron false keeps
// installs offline-safe). The first `npm start` fetches it with Electron's own installer.
// When that fails, the user gets one paragraph that says what to do, not a stack trace.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const electronDir = path.join(root, 'node_modules', 'electron');

/** The installer's own reason, on one short line: "fetch failed", "getaddrinfo ENOTFOUND …". */
function reasonOf(output) {
  const line = output
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /(Error|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EACCES|\b[45]\d\d\b)/.test(l) && !l.startsWith('at '));
  if (!line) return 'the installer gave no reason';
  const text = line.replace(/^(?:\w*Error|Error):\s*/, '');
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

if (!fs.existsSync(path.join(electronDir, 'path.txt'))) {
  console.log('Downloading Electron (first start only)…');
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
    cwd: electronDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    const reason = reasonOf(`${result.stderr ?? ''}\n${result.stdout ?? ''}\n${result.error?.message ?? ''}`);
    console.error(
      `Stepwise could not download Electron, which the desktop app needs (${reason}). ` +
        'You can use Stepwise right away in your browser: run `npm run serve` and open the address it prints. ' +
        'To get the desktop app, check your connection, or set ELECTRON_MIRROR to a mirror of Electron’s releases ' +
        '(for example ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/) and run `npm start` again.',
    );
    process.exit(1);
  }
}
