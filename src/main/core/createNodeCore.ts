// The core as plain Node hosts it (browser host, CLI, tests): conf for settings and a
// 0600 key file for the API key.
import path from 'node:path';
import { createCore, type CoreOptions } from './createCore';
import { checkEventsFrom } from './ipc/eventBus';
import { createConfBackend } from './settings/confBackend';
import { createFileSecretStore } from './settings/fileSecretStore';
import { prepareSettingsFile, SETTINGS_FILE } from './settings/settingsFile';
import { openDataDir } from './storage/openDataDir';

export function createNodeCore(options: {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  version?: string;
  now?: CoreOptions['now'];
  /** Only tests pass these: a plain Node host has no native dialogs. */
  fileDialogs?: CoreOptions['fileDialogs'];
  chat?: CoreOptions['chat'];
  /** Tests: the routines' clock and time zone. */
  routineClock?: CoreOptions['routineClock'];
  routineTimeZone?: CoreOptions['routineTimeZone'];
  /** Default: on under tests (NODE_ENV=test) or STEPWISE_CHECK_EVENTS=1 in this process's environment. */
  checkEvents?: boolean;
  mcpSignIn?: CoreOptions['mcpSignIn'];
  /** Taken by the host already (it migrates before the core opens); otherwise taken here. */
  instanceLock?: CoreOptions['instanceLock'];
}) {
  // The lock comes first: a refused second instance must not touch the first one's files.
  const instanceLock = options.instanceLock ?? openDataDir(options.dataDir, 'the browser host');
  try {
    const preparedSettings = prepareSettingsFile(path.join(options.dataDir, SETTINGS_FILE));
    const env = options.env ?? process.env;
    return createCore({
      instanceLock,
      dataDir: options.dataDir,
      host: 'browser',
      version: options.version ?? '0.0.0',
      settingsBackend: createConfBackend(options.dataDir),
      secrets: createFileSecretStore(options.dataDir),
      env: {
        OPENAI_API_KEY: env.OPENAI_API_KEY,
        OPENAI_BASE_URL: env.OPENAI_BASE_URL,
        STEPWISE_MODEL: env.STEPWISE_MODEL,
      },
      preparedSettings,
      now: options.now,
      fileDialogs: options.fileDialogs,
      chat: options.chat,
      routineClock: options.routineClock,
      routineTimeZone: options.routineTimeZone,
      checkEvents: options.checkEvents ?? checkEventsFrom(process.env),
      mcpSignIn: options.mcpSignIn,
    });
  } catch (error) {
    instanceLock.release({ clean: false });
    throw error;
  }
}
