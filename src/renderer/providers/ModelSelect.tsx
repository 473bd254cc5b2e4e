// A <select> of every profile's models, grouped by profile. Used by the conversation
// header's picker and by Settings (workers, the Autopilot assessor).
import type { ModelRef } from '../../shared/providers';
import type { SettingsView } from '../../shared/settings';
import { choiceValue, modelGroups, parseChoice } from './modelChoices';

export const SAME_AS_CONVERSATION = '';

export function ModelSelect(props: {
  label: string;
  settings: SettingsView;
  value: ModelRef | null;
  /** Offer "Same as the conversation" (value null). */
  allowSame?: boolean;
  className?: string;
  id?: string;
  onChange: (ref: ModelRef | null) => void;
}) {
  const groups = modelGroups(props.settings, props.value);
  return (
    <select
      id={props.id}
      className={props.className}
      aria-label={props.label}
      value={props.value ? choiceValue(props.value) : SAME_AS_CONVERSATION}
      onChange={(e) => props.onChange(e.target.value === SAME_AS_CONVERSATION ? null : parseChoice(e.target.value))}
    >
      {props.allowSame && <option value={SAME_AS_CONVERSATION}>Same as the conversation</option>}
      {!props.allowSame && !props.value && <option value={SAME_AS_CONVERSATION}>No model</option>}
      <ModelOptions groups={groups} />
    </select>
  );
}

/** The options of a model <select>: one group a profile, each option's value a `choiceValue`. */
export function ModelOptions({ groups }: { groups: ReturnType<typeof modelGroups> }) {
  return groups.map((group) => (
    <optgroup key={group.profileId} label={group.label}>
      {group.models.map((model) => (
        <option key={model} value={choiceValue({ profileId: group.profileId, model })}>
          {model}
        </option>
      ))}
    </optgroup>
  ));
}
