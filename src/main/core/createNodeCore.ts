// The core as plain Node hosts it (browser host, CLI, tests): conf for settings and a
// 0600 key file for the API key.
import path from 'node:path';
import fs from 'node:fs';
import { createCore, type CoreOptions } from './createCore';
import { createConfBackend } from './settings/confBackend';
import { createFileSecretStore } from './settings/fileSecretStore';
import { prepareSettingsFile, SETTINGS_FILE } from './settings/settingsFile';

export function createNodeCore(options: {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  version?: string;
  now?: CoreOptions['now'];
  /** Only tests pass these: a plain Node host has no native dialogs. */
  fileDialogs?: CoreOptions['fileDialogs'];
  chat?: CoreOptions['chat'];
}) {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const preparedSettings = prepareSettingsFile(path.join(options.dataDir, SETTINGS_FILE));
  const env = options.env ?? process.env;
  return createCore({
    dataDir: options.dataDir,
    host: 'browser',
    version: options.version ?? '0.0.0',
    settingsBackend: createConfBackend(options.dataDir),
    secrets: createFileSecretStore(options.dataDir),
    env: { OPENAI_API_KEY: env.OPENAI_API_KEY, OPENAI_BASE_URL: env.OPENAI_BASE_URL, STEPWISE_MODEL: env.STEPWISE_MODEL },
    preparedSettings,
    now: options.now,
    fileDialogs: options.fileDialogs,
    chat: options.chat,
  });
}
