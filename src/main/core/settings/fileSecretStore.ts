// The browser host keeps the API key in a file readable only by its owner (mode 0600).
// There is no OS keychain in plain Node, so the permission bits are the protection.
import fs from 'node:fs';
import path from 'node:path';
import type { Notice } from '../../../shared/domain';
import type { SecretStore } from './settingsService';
import { ensurePrivateDir } from '../storage/privateFiles';
import { writePrivateFileSync } from '../storage/writePrivateFile';

export const KEY_FILE = 'api-key';

export function createFileSecretStore(dataDir: string): SecretStore {
  const file = path.join(dataDir, KEY_FILE);
  return {
    canStore: true,
    source: 'file',
    read() {
      try {
        const stat = fs.statSync(file);
        // A key others can read is treated as absent rather than silently used.
        if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) return null;
        const key = fs.readFileSync(file, 'utf8').trim();
        return key || null;
      } catch {
        return null;
      }
    },
    write(key) {
      if (key === null) {
        fs.rmSync(file, { force: true });
        return;
      }
      ensurePrivateDir(dataDir);
      // A fresh 0600 file renamed over the old one: the key is never, even briefly, in a
      // file others can read.
      writePrivateFileSync(file, key);
    },
  };
}

/** What the user is told when start-up found the saved key readable by others (and narrowed it). */
export function exposedKeyNotice(dataDir: string, madePrivate: readonly string[]): Notice | null {
  if (!madePrivate.includes(KEY_FILE)) return null;
  return {
    id: 'key-file-exposed',
    level: 'warning',
    text: `Your saved API key (${path.join(dataDir, KEY_FILE)}) was readable by other users of this computer. Stepwise made it private; if anyone else could have read it, replace the key.`,
  };
}
