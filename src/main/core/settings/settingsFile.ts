// Guards the settings file before a store library opens it: a file that is not JSON or
// does not match the schema is kept as `.bak` and replaced by defaults, never lost.
import fs from 'node:fs';
import type { Notice } from '../../../shared/domain';
import { Settings } from '../../../shared/settings';

export const SETTINGS_FILE = 'settings.json';

export interface PreparedSettings {
  /** Set when the file was unreadable and was moved to this path. */
  backup: string | null;
  reason: string | null;
}

export function prepareSettingsFile(file: string): PreparedSettings {
  if (!fs.existsSync(file)) return { backup: null, reason: null };
  let reason: string | null = null;
  try {
    const parsed = Settings.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) reason = 'it does not match the settings schema';
  } catch {
    reason = 'it is not valid JSON';
  }
  if (!reason) return { backup: null, reason: null };
  const backup = `${file}.bak`;
  fs.copyFileSync(file, backup);
  fs.rmSync(file);
  return { backup, reason };
}

/** What the user is told when the settings file could not be read and defaults are in use. */
export function settingsResetNotice(prepared: PreparedSettings | undefined): Notice | null {
  if (!prepared?.backup) return null;
  return {
    id: 'settings-reset',
    level: 'warning',
    text: `Your settings could not be read (${prepared.reason}), so defaults are in use. The old file was kept as ${prepared.backup}.`,
  };
}
