// When Stepwise has no working provider, the home screen offers "Connect a model" instead
// of letting the first send fail. Zod-free (only types), so the first paint can use it.
import type { SettingsView } from './settings';

/** Servers that run without a key (local ones, and Custom, which may or may not need one). */
const KEYLESS_PRESETS = new Set(['ollama', 'lmstudio', 'vllm', 'llamacpp', 'custom']);

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
  if (!profile || !profile.baseUrl.trim()) return true;
  return !KEYLESS_PRESETS.has(profile.preset) && (profile.key === 'none' || profile.key === 'held');
}
