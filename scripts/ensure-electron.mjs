// Electron's binary is not downloaded by `npm ci` (allowScripts: electron false keeps
// installs offline-safe). The first `npm start` fetches it with Electron's own installer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const electronDir = path.join(root, 'node_modules', 'electron');
if (!fs.existsSync(path.join(electronDir, 'path.txt'))) {
  console.log('Downloading Electron (first start only)…');
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { cwd: electronDir, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('Could not download Electron. Without it, run Stepwise in a browser with `npm run serve`.');
    process.exit(1);
  }
}
