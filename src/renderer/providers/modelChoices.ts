// The models offered for choosing: per usable profile (a keyless server, or a hosted one
// with its key), its default model, the models its server listed ("Load models") and the
// model currently chosen, once each. The current choice's profile is offered even when it
// cannot be used, so the list shows what is chosen.
import { isUsableProfile } from '../../shared/firstRun';
import type { ModelRef } from '../../shared/providers';
import type { SettingsView } from '../../shared/settings';

export interface ModelGroup {
  profileId: string;
  label: string;
  models: string[];
}

export function modelGroups(settings: SettingsView, current?: ModelRef | null): ModelGroup[] {
  const offered = settings.profiles.filter((p) => isUsableProfile(p) || p.id === current?.profileId);
  return offered.map((profile) => {
    const models = new Set<string>();
    if (profile.defaultModel) models.add(profile.defaultModel);
    if (current && current.profileId === profile.id) models.add(current.model);
    for (const model of profile.models) models.add(model);
    return {
      profileId: profile.id,
      label: isUsableProfile(profile) ? profile.name : `${profile.name} (not set up)`,
      models: [...models],
    };
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
