// Settings behind an interface: electron-store in the desktop app, conf in the browser
// host and tests. Environment variables override the stored values in both hosts.
import { Settings, SettingsPatch, type SettingsView } from '../../../shared/settings';

export interface SettingsBackend {
  read(): unknown;
  write(value: Settings): void;
}

/** Where the API key lives. It never leaves main. */
export interface SecretStore {
  /** False when nothing on this machine can encrypt the key at rest. */
  readonly canStore: boolean;
  readonly source: 'stored' | 'file';
  read(): string | null;
  write(key: string | null): void;
}

export interface SettingsEnv {
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  STEPWISE_MODEL?: string;
}

export function createSettingsService(backend: SettingsBackend, secrets: SecretStore, env: SettingsEnv) {
  let current = loadSettings(backend);
  // Keys this version does not know (written by a newer Stepwise) survive our writes.
  const unknown = unknownKeys(backend.read());

  function apiKey(): { key: string | null; source: SettingsView['apiKeySource'] } {
    if (env.OPENAI_API_KEY) return { key: env.OPENAI_API_KEY, source: 'env' };
    const stored = secrets.read();
    return stored ? { key: stored, source: secrets.source } : { key: null, source: 'none' };
  }

  return {
    /** Stored settings with environment overrides applied: what the engine uses. */
    effective(): Settings {
      return {
        ...current,
        baseUrl: env.OPENAI_BASE_URL || current.baseUrl,
        model: env.STEPWISE_MODEL || current.model,
      };
    },
    apiKey: () => apiKey().key,
    view(): SettingsView {
      const key = apiKey();
      const overridden: SettingsView['overridden'] = [];
      if (env.OPENAI_BASE_URL) overridden.push('baseUrl');
      if (env.STEPWISE_MODEL) overridden.push('model');
      if (env.OPENAI_API_KEY) overridden.push('apiKey');
      return {
        ...this.effective(),
        apiKeySet: key.key !== null,
        apiKeySource: key.source,
        canStoreKey: secrets.canStore,
        overridden,
      };
    },
    update(patch: SettingsPatch): Settings {
      current = Settings.parse({ ...current, ...SettingsPatch.parse(patch) });
      backend.write({ ...unknown, ...current });
      return current;
    },
    setApiKey(key: string | null): void {
      secrets.write(key && key.trim() ? key.trim() : null);
    },
  };
}

function unknownKeys(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const known = new Set(Object.keys(Settings.shape));
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !known.has(key)));
}

function loadSettings(backend: SettingsBackend): Settings {
  const parsed = Settings.safeParse(backend.read() ?? {});
  return parsed.success ? parsed.data : Settings.parse({});
}

export type SettingsService = ReturnType<typeof createSettingsService>;
