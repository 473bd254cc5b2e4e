// The desktop app's data directory (Electron's userData for an app named "Stepwise"),
// so the browser host and the CLI see the same conversations by default.
import os from 'node:os';
import path from 'node:path';

export const APP_NAME = 'Stepwise';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_NAME);
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), APP_NAME);
}
