// When the home screen offers "Connect a model": no model to start with, no address, or a
// hosted service without its key. Keyless (local and Custom) profiles with an address count
// as working.
import { describe, expect, it } from 'vitest';
import { isUnconfiguredPreset, isUsableProfile, needsProvider } from '../../src/shared/firstRun';
import type { ProfileView } from '../../src/shared/providers';

function profile(over: Partial<ProfileView>): ProfileView {
  return {
    id: 'p1',
    name: 'P',
    preset: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    headers: {},
    defaultModel: 'gpt-4o-mini',
    models: [],
    reportedWindows: {},
    modelOptions: {},
    streamUsage: true,
    readOnly: false,
    key: 'saved',
    keyServer: null,
    locked: [],
    ...over,
  };
}

const ref = { profileId: 'p1', model: 'gpt-4o-mini' };

describe('needsProvider', () => {
  it('is true with no profile or no model to start with', () => {
    expect(needsProvider({ profiles: [], defaultModel: null })).toBe(true);
    expect(needsProvider({ profiles: [profile({})], defaultModel: null })).toBe(true);
    expect(needsProvider({ profiles: [profile({})], defaultModel: { profileId: 'gone', model: 'x' } })).toBe(true);
  });

  it('is true for a hosted service without its key, or with a key held for another address', () => {
    expect(needsProvider({ profiles: [profile({ key: 'none' })], defaultModel: ref })).toBe(true);
    expect(
      needsProvider({ profiles: [profile({ key: 'held', keyServer: 'https://old.example/v1' })], defaultModel: ref }),
    ).toBe(true);
    expect(needsProvider({ profiles: [profile({ key: 'saved' })], defaultModel: ref })).toBe(false);
    expect(needsProvider({ profiles: [profile({ key: 'env' })], defaultModel: ref })).toBe(false);
  });

  it('is false for a local or Custom server with an address and no key, true without an address', () => {
    expect(
      needsProvider({
        profiles: [profile({ preset: 'ollama', key: 'none', baseUrl: 'http://127.0.0.1:11434/v1' })],
        defaultModel: ref,
      }),
    ).toBe(false);
    expect(needsProvider({ profiles: [profile({ preset: 'custom', key: 'none' })], defaultModel: ref })).toBe(false);
    expect(
      needsProvider({ profiles: [profile({ preset: 'custom', key: 'none', baseUrl: ' ' })], defaultModel: ref }),
    ).toBe(true);
  });
});

describe('which profiles are offered (issue 26)', () => {
  const OPENAI = { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' };

  it('offers a keyless server with an address, or a hosted one with its key', () => {
    expect(isUsableProfile(profile({ preset: 'custom', key: 'none', baseUrl: 'http://127.0.0.1:8080/v1' }))).toBe(true);
    expect(isUsableProfile(profile({ key: 'saved' }))).toBe(true);
    expect(isUsableProfile(profile({ key: 'none' }))).toBe(false);
    expect(isUsableProfile(profile({ key: 'held' }))).toBe(false);
  });

  it('treats a hosted preset nobody changed and without a key as no profile', () => {
    expect(isUnconfiguredPreset(profile({ key: 'none' }), OPENAI)).toBe(true);
    expect(isUnconfiguredPreset(profile({ key: 'saved' }), OPENAI)).toBe(false);
    expect(isUnconfiguredPreset(profile({ key: 'none', baseUrl: 'https://proxy.example/v1' }), OPENAI)).toBe(false);
    expect(isUnconfiguredPreset(profile({ key: 'none', models: ['gpt-4o'] }), OPENAI)).toBe(false);
    expect(isUnconfiguredPreset(profile({ key: 'none', defaultModel: 'gpt-4.1' }), OPENAI)).toBe(false);
    expect(isUnconfiguredPreset(profile({ key: 'none', readOnly: true }), OPENAI)).toBe(false);
    expect(
      isUnconfiguredPreset(
        profile({ key: 'none', preset: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', defaultModel: 'llama3.2' }),
        { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' },
      ),
    ).toBe(false);
  });
});
