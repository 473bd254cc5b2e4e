// Every profile's API key in the one secret the host's SecretStore keeps (safeStorage on
// the desktop, a 0600 file in the browser host). Each key remembers the address it was
// saved for: a key follows only its server, so a changed base URL does not receive it
// until the user confirms. A secret from before profiles (a bare key) belongs to the
// first profile.
import { z } from 'zod';
import type { SecretStore } from '../settings/settingsService';
import { FIRST_PROFILE_ID } from '../settings/legacySettings';

const SavedKey = z.object({ key: z.string().min(1), baseUrl: z.string() });
// Loose: other secrets kept in the same store (the task-share token) survive key writes.
export const KeyFile = z.looseObject({ stepwiseKeys: z.literal(1), keys: z.record(z.string(), SavedKey) });
type SavedKey = z.infer<typeof SavedKey>;

export function createProfileKeys(secrets: SecretStore, firstBaseUrl: () => string | undefined) {
  function readAll(): Record<string, SavedKey> {
    const raw = secrets.read();
    if (!raw) return {};
    try {
      const parsed = KeyFile.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data.keys;
    } catch {
      // Not JSON: a bare key saved before profiles existed.
    }
    const baseUrl = firstBaseUrl();
    return baseUrl === undefined ? {} : { [FIRST_PROFILE_ID]: { key: raw.trim(), baseUrl } };
  }

  function writeAll(keys: Record<string, SavedKey>) {
    const { stepwiseKeys: _v, keys: _k, ...others } = readFile() ?? {};
    const keep = Object.keys(keys).length > 0 || Object.keys(others).length > 0;
    secrets.write(keep ? JSON.stringify({ ...others, stepwiseKeys: 1, keys }) : null);
  }

  function readFile(): z.infer<typeof KeyFile> | null {
    try {
      const parsed = KeyFile.safeParse(JSON.parse(secrets.read() ?? ''));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  return {
    canStore: secrets.canStore,
    get: (profileId: string): SavedKey | null => readAll()[profileId] ?? null,
    /** Saves (or with null, forgets) a profile's key, bound to the address it is for. */
    set(profileId: string, key: string | null, baseUrl: string) {
      const keys = readAll();
      if (key && key.trim()) keys[profileId] = { key: key.trim(), baseUrl };
      else delete keys[profileId];
      writeAll(keys);
    },
    /** The user agreed to send the saved key to the profile's new address. */
    rebind(profileId: string, baseUrl: string) {
      const keys = readAll();
      const saved = keys[profileId];
      if (!saved) return;
      keys[profileId] = { ...saved, baseUrl };
      writeAll(keys);
    },
    /** Another secret kept beside the keys, by name (null: none). */
    extra(name: string): string | null {
      const value = readFile()?.[name];
      return typeof value === 'string' ? value : null;
    },
    /** Saves another secret beside the keys; a bare key from before profiles becomes the first profile's first. */
    setExtra(name: string, value: string | null) {
      const keys = readAll();
      const { stepwiseKeys: _v, keys: _k, ...rest } = readFile() ?? {};
      const others: Record<string, unknown> = rest;
      if (value === null) delete others[name];
      else others[name] = value;
      const keep = Object.keys(keys).length > 0 || Object.keys(others).length > 0;
      secrets.write(keep ? JSON.stringify({ ...others, stepwiseKeys: 1, keys }) : null);
    },
    /** Every saved key, for redacting server texts and logs. */
    all: (): string[] => Object.values(readAll()).map((k) => k.key),
  };
}

export type ProfileKeys = ReturnType<typeof createProfileKeys>;

/** One other secret kept beside the keys, as a slot to read and write (MCP sign-in tokens); null without a keychain. */
export function extraSecretSlot(secrets: SecretStore, name: string) {
  if (!secrets.canStore) return null;
  const keys = createProfileKeys(secrets, () => undefined);
  return {
    read: () => keys.extra(name),
    write: (value: string | null) => keys.setExtra(name, value),
  };
}
