// OPENAI_BASE_URL, OPENAI_API_KEY and STEPWISE_MODEL define a read-only profile named
// "Environment". What the user may still change about it (loaded models, context windows,
// prices) is stored under the same id like any profile.
import { ENV_PROFILE_ID, PROVIDER_PRESETS, ProviderProfile, type ProfileView } from '../../../shared/providers';
import type { SettingsEnv } from '../settings/settingsService';

export const ENV_PROFILE_NAME = 'Environment';

export function envProfile(
  env: SettingsEnv,
  stored: ProviderProfile | undefined,
): { profile: ProviderProfile; locked: ProfileView['locked'] } | null {
  const baseUrl = env.OPENAI_BASE_URL?.trim();
  const model = env.STEPWISE_MODEL?.trim();
  const key = env.OPENAI_API_KEY?.trim();
  if (!baseUrl && !model && !key) return null;
  const locked: ProfileView['locked'] = [];
  if (baseUrl) locked.push({ field: 'baseUrl', variable: 'OPENAI_BASE_URL' });
  if (key) locked.push({ field: 'apiKey', variable: 'OPENAI_API_KEY' });
  if (model) locked.push({ field: 'defaultModel', variable: 'STEPWISE_MODEL' });
  const profile = ProviderProfile.parse({
    ...stored,
    id: ENV_PROFILE_ID,
    name: ENV_PROFILE_NAME,
    preset: 'custom',
    baseUrl: baseUrl || PROVIDER_PRESETS.openai.baseUrl,
    headers: {},
    defaultModel: model || PROVIDER_PRESETS.openai.model,
  });
  return { profile, locked };
}
