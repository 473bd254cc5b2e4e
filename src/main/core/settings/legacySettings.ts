// Settings files from before provider profiles held one endpoint (provider, baseUrl,
// model). The first start of this version turns it into a profile, so existing users
// keep working; its id is fixed so the key saved before can follow it.
import { PROVIDER_PRESETS, ProviderPresetId, ProviderProfile } from '../../../shared/providers';
import type { Settings } from '../../../shared/settings';

export const FIRST_PROFILE_ID = 'default';

const LEGACY_PRESET: Record<string, ProviderPresetId> = {
  openai: 'openai',
  ollama: 'ollama',
  lmstudio: 'lmstudio',
  custom: 'custom',
};

export function migrateLegacyProvider(settings: Settings, raw: unknown): Settings {
  const old = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (Array.isArray(old.profiles)) return settings;
  const preset = LEGACY_PRESET[String(old.provider)] ?? 'openai';
  const text = (value: unknown, fallback: string) =>
    typeof value === 'string' && value.trim() ? value.trim() : fallback;
  const profile = ProviderProfile.parse({
    id: FIRST_PROFILE_ID,
    name: PROVIDER_PRESETS[preset].label.replace(/ \(.*\)$/, ''),
    preset,
    baseUrl: text(old.baseUrl, PROVIDER_PRESETS[preset].baseUrl).slice(0, 2000),
    defaultModel: text(old.model, PROVIDER_PRESETS.openai.model).slice(0, 500),
  });
  return { ...settings, profiles: [profile, ...settings.profiles] };
}
