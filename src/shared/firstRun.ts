// When Stepwise has no working provider, the home screen offers "Connect a model" instead
// of letting the first send fail. Which profiles can be used at all, and which are only a
// preset nobody set up, is decided here too. Zod-free (only types), so the first paint can use it.
import type { ProfileView, ProviderPresetId } from './providers';
import type { SettingsView } from './settings';

/** Servers that run without a key (local ones, and Custom, which may or may not need one). */
const KEYLESS_PRESETS = new Set<ProviderPresetId>(['ollama', 'lmstudio', 'vllm', 'llamacpp', 'custom']);

/** The preset of a service on this computer (its key field says "if the server needs one"). */
export const isKeylessPreset = (preset: ProviderPresetId) => KEYLESS_PRESETS.has(preset);

type ProfileState = Pick<ProfileView, 'preset' | 'baseUrl' | 'key'>;

/**
 * Can be asked at all: it has an address, and it is a server that runs without a key, or a
 * hosted service (OpenAI, Anthropic…) whose key is saved for this address or set by OPENAI_API_KEY.
 */
export function isUsableProfile(profile: ProfileState): boolean {
  if (!profile.baseUrl.trim()) return false;
  return KEYLESS_PRESETS.has(profile.preset) || profile.key === 'saved' || profile.key === 'env';
}

/**
 * A hosted preset nobody set up: no key, and nothing the user changed (the preset's
 * address and model, no headers, no models loaded, no model details). Older versions stored an
 * "OpenAI" profile like that on the first start; it is offered under "Add a provider", not
 * as a profile.
 */
export function isUnconfiguredPreset(
  profile: Pick<
    ProfileView,
    'preset' | 'baseUrl' | 'defaultModel' | 'key' | 'readOnly' | 'headers' | 'models' | 'modelOptions'
  >,
  preset: { baseUrl: string; model: string },
): boolean {
  return (
    !profile.readOnly &&
    !KEYLESS_PRESETS.has(profile.preset) &&
    profile.key === 'none' &&
    profile.baseUrl.trim() === preset.baseUrl &&
    profile.defaultModel.trim() === preset.model &&
    !Object.keys(profile.headers).length &&
    !profile.models.length &&
    !Object.keys(profile.modelOptions).length
  );
}

/**
 * No working provider: no model to start new conversations with, or its profile has no
 * address, or it is a hosted service (OpenAI, Anthropic…) whose key is missing or still
 * waits to be confirmed for a new address. A keyless profile with an address counts as
 * working: whether its server answers is the first send's (or "Test connection"'s) to say.
 */
export function needsProvider(settings: Pick<SettingsView, 'profiles' | 'defaultModel'>): boolean {
  const ref = settings.defaultModel;
  if (!ref || !ref.model.trim()) return true;
  const profile = settings.profiles.find((p) => p.id === ref.profileId);
  return !profile || !isUsableProfile(profile);
}
