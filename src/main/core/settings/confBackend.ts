// The settings backend for plain Node (browser host, CLI, tests): `conf`, the library
// electron-store is built on, writing the same settings.json the desktop app uses.
import Conf from 'conf';
import type { Settings } from '../../../shared/settings';
import type { SettingsBackend } from './settingsService';
import { PRIVATE_FILE_MODE } from '../storage/privateFiles';

export function createConfBackend(dataDir: string): SettingsBackend {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: 'settings',
    projectName: 'stepwise',
    // Private whatever the umask (conf's default is 0666).
    configFileMode: PRIVATE_FILE_MODE,
  });
  return {
    read: () => conf.store,
    write: (value: Settings) => {
      conf.store = value;
    },
  };
}
