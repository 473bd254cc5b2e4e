// One preset order everywhere (issue 26): every preset is offered exactly once.
import { describe, expect, it } from 'vitest';
import { PRESET_GROUPS, ProviderPresetId } from '../../src/shared/providers';

describe('PRESET_GROUPS', () => {
  it('offers every preset once', () => {
    const listed = PRESET_GROUPS.flatMap((g) => g.presets);
    expect([...listed].sort()).toEqual([...ProviderPresetId.options].sort());
  });
});
