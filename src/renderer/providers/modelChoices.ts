// The models offered for choosing: per profile, its default model, the models its server
// listed ("Load models") and the model currently chosen, once each.
import type { ModelRef } from '../../shared/providers';
import type { SettingsView } from '../../shared/settings';

export interface ModelGroup {
  profileId: string;
  label: string;
  models: string[];
}

export function modelGroups(settings: SettingsView, current?: ModelRef | null): ModelGroup[] {
  return settings.profiles.map((profile) => {
    const models = new Set<string>();
    if (profile.defaultModel) models.add(profile.defaultModel);
    if (current && current.profileId === profile.id) models.add(current.model);
    for (const model of profile.models) models.add(model);
    return { profileId: profile.id, label: profile.name, models: [...models] };
  });
}

/** One <option> value for a profile and model (both may contain any character). */
export const choiceValue = (ref: ModelRef) => JSON.stringify([ref.profileId, ref.model]);

export function parseChoice(value: string): ModelRef | null {
  try {
    const [profileId, model] = JSON.parse(value) as [unknown, unknown];
    return typeof profileId === 'string' && typeof model === 'string' ? { profileId, model } : null;
  } catch {
    return null;
  }
}
