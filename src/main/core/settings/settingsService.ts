// Settings behind an interface: electron-store in the desktop app, conf in the browser
// host and tests. Provider profiles live here too (never their keys: see providers/).
import { Settings, SettingsPatch } from '../../../shared/settings';
import { migrateLegacyProvider } from './legacySettings';

export interface SettingsBackend {
  read(): unknown;
  write(value: Settings): void;
}

/** Where the API keys live (one secret holding every profile's key). It never leaves main. */
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

/** Fields of settings files before provider profiles; folded into the first profile. */
const LEGACY_KEYS = new Set(['provider', 'baseUrl', 'model']);

export function createSettingsService(backend: SettingsBackend) {
  const raw = backend.read();
  let current = loadSettings(raw);
  // Keys this version does not know (written by a newer Stepwise) survive our writes.
  const unknown = unknownKeys(raw);

  function save(next: Settings): Settings {
    current = Settings.parse(next);
    backend.write({ ...unknown, ...current });
    return current;
  }

  return {
    /** The stored settings (the Environment profile is added by the providers module). */
    effective: (): Settings => current,
    update(patch: SettingsPatch): Settings {
      return save({ ...current, ...SettingsPatch.parse(patch) });
    },
    /** For modules that own a part of the settings (provider profiles, the last model). */
    change(change: (settings: Settings) => Settings): Settings {
      return save(change(current));
    },
  };
}

function unknownKeys(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const known = new Set(Object.keys(Settings.shape));
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !known.has(key) && !LEGACY_KEYS.has(key)));
}

function loadSettings(raw: unknown): Settings {
  const parsed = Settings.safeParse(raw ?? {});
  const settings = parsed.success ? parsed.data : Settings.parse({});
  return migrateLegacyProvider(settings, raw);
}

export type SettingsService = ReturnType<typeof createSettingsService>;
