// What a host passes to createCore: where the data lives, its settings and secrets, and the
// clocks, timeouts and dialogs tests and hosts replace.
import type { FileDialogs } from './export/exportModule';
import type { ChatEngineOptions } from './llm/agentLoop';
import type { Clock } from './routines/scheduler';
import type { PreparedSettings } from './settings/settingsFile';
import type { SecretStore, SettingsBackend, SettingsEnv } from './settings/settingsService';
import type { DataDirLock } from './storage/openDataDir';

export interface CoreOptions {
  dataDir: string;
  host: 'electron' | 'browser';
  version: string;
  settingsBackend: SettingsBackend;
  secrets: SecretStore;
  env: SettingsEnv;
  /** What prepareSettingsFile found before the backend opened the file. */
  preparedSettings?: PreparedSettings;
  now?: () => number;
  /** Native save/open dialogs (desktop). Without them exports are downloads and imports need the file's text. */
  fileDialogs?: FileDialogs;
  /** Timeouts, retries and intervals of the chat engine (tests shorten them). */
  chat?: Partial<ChatEngineOptions>;
  /** From openDataDir when the host took it before reading settings; otherwise taken here. */
  instanceLock?: DataDirLock;
  /** Parse every pushed event against the contract (see eventBus.ts); hosts pass `checkEventsFrom(process.env)`. */
  checkEvents?: boolean;
  /** The routines' clock and time zone (tests); default: the real clock, the local zone. */
  routineClock?: Clock;
  routineTimeZone?: string;
  /** Signing in to remote MCP servers: the loopback port (tests pass 0) and how long a sign-in may wait. */
  mcpSignIn?: { callbackPort?: number; timeoutMs?: number; requestTimeoutMs?: number };
}
