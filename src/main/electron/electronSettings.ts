// Desktop settings and key storage: electron-store for settings, the OS keychain
// (safeStorage) to encrypt the API key at rest.
import fs from 'node:fs';
import path from 'node:path';
import Store from 'electron-store';
import { safeStorage } from 'electron';
import type { Settings } from '../../shared/settings';
import type { SecretStore, SettingsBackend } from '../core/settings/settingsService';
import { PRIVATE_FILE_MODE } from '../core/storage/privateFiles';
import { writePrivateFileSync } from '../core/storage/writePrivateFile';

export function createElectronStoreBackend(dataDir: string): SettingsBackend {
  const store = new Store<Record<string, unknown>>({
    name: 'settings',
    cwd: dataDir,
    configFileMode: PRIVATE_FILE_MODE,
  });
  return {
    read: () => store.store,
    write: (value: Settings) => {
      store.store = value;
    },
  };
}

export function createSafeStorageSecretStore(dataDir: string): SecretStore {
  const file = path.join(dataDir, 'api-key.enc');
  // basic_text means "no keychain": the key would be stored in the clear, so refuse.
  const canStore =
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text');
  return {
    canStore,
    source: 'stored',
    read() {
      if (!canStore || !fs.existsSync(file)) return null;
      try {
        return safeStorage.decryptString(fs.readFileSync(file)) || null;
      } catch {
        return null;
      }
    },
    write(key) {
      if (key === null) {
        fs.rmSync(file, { force: true });
        return;
      }
      if (!canStore) throw new Error('This system has no keychain to encrypt the API key; set OPENAI_API_KEY instead.');
      writePrivateFileSync(file, safeStorage.encryptString(key));
    },
  };
}
