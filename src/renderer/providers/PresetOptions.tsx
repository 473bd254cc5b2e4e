// The provider presets as <option>s, grouped and in the one order every list uses.
import { PRESET_GROUPS, PROVIDER_PRESETS } from '../../shared/providers';

export function PresetOptions() {
  return PRESET_GROUPS.map((group) => (
    <optgroup key={group.label} label={group.label}>
      {group.presets.map((id) => (
        <option key={id} value={id}>
          {PROVIDER_PRESETS[id].label}
        </option>
      ))}
    </optgroup>
  ));
}
