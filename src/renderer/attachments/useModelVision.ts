// Whether the model a message goes to sees images: the user's "Sees images" setting for
// it, else the guess from its name — the same rule main applies to the request.
import { seesImages } from '../../shared/attachments';
import type { ModelRef } from '../../shared/providers';
import { useSettings } from '../settings/useSettings';

/** `own`: the conversation's model; null or absent: the default for new conversations. */
export function useModelVision(own?: ModelRef | null): { model: string; sees: boolean } | null {
  const settings = useSettings();
  const ref = own ?? settings?.defaultModel;
  if (!settings || !ref) return null;
  const profile = settings.profiles.find((p) => p.id === ref.profileId);
  return { model: ref.model, sees: seesImages(profile?.modelOptions[ref.model], ref.model) };
}
