// The settings backend for plain Node (browser host, CLI, tests): `conf`, the library
// electron-store is built on, writing the same settings.json the desktop app uses.
import Conf from 'conf';
import type { Settings } from '../../../shared/settings';
import type { SettingsBackend } from './settingsService';

export function createConfBackend(dataDir: string): SettingsBackend {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: 'settings',
    projectName: 'stepwise',
  });
  return {
    read: () => conf.store,
    write: (value: Settings) => {
      conf.store = value;
    },
  };
}
