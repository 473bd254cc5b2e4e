// The task-share token is kept in the same secret as the API keys: saving or forgetting a
// key keeps the token, the token keeps the keys (a bare key from before profiles too).
import { describe, expect, it } from 'vitest';
import { createProfileKeys } from '../../src/main/core/providers/profileKeys';
import { FIRST_PROFILE_ID } from '../../src/main/core/settings/legacySettings';
import type { SecretStore } from '../../src/main/core/settings/settingsService';

function memoryStore(initial: string | null = null): SecretStore & { value: string | null } {
  return {
    canStore: true,
    source: 'file',
    value: initial,
    read() {
      return this.value;
    },
    write(value) {
      this.value = value;
    },
  };
}

describe('a secret beside the API keys', () => {
  it('survives saving and forgetting keys, and the keys survive it', () => {
    const store = memoryStore();
    const keys = createProfileKeys(store, () => 'https://api.example.com/v1');
    keys.set('p1', 'sk-one', 'https://api.example.com/v1');
    keys.setExtra('taskShareToken', 'tok-1');
    keys.set('p2', 'sk-two', 'https://other.example.com/v1');
    expect(keys.extra('taskShareToken')).toBe('tok-1');
    keys.set('p1', null, '');
    keys.set('p2', null, '');
    expect(keys.extra('taskShareToken')).toBe('tok-1');
    expect(store.value).not.toBeNull();
    keys.set('p3', 'sk-three', 'https://x.example.com/v1');
    keys.setExtra('taskShareToken', 'tok-2');
    expect(keys.get('p3')).toEqual({ key: 'sk-three', baseUrl: 'https://x.example.com/v1' });
    expect(keys.extra('taskShareToken')).toBe('tok-2');
  });

  it("keeps a bare key from before profiles as the first profile's", () => {
    const store = memoryStore('sk-legacy');
    const keys = createProfileKeys(store, () => 'https://legacy.example.com/v1');
    keys.setExtra('taskShareToken', 'tok');
    expect(keys.get(FIRST_PROFILE_ID)).toEqual({ key: 'sk-legacy', baseUrl: 'https://legacy.example.com/v1' });
    expect(keys.extra('taskShareToken')).toBe('tok');
  });

  it('forgets everything once neither keys nor other secrets are left', () => {
    const store = memoryStore();
    const keys = createProfileKeys(store, () => undefined);
    keys.setExtra('taskShareToken', 'tok');
    keys.setExtra('taskShareToken', null);
    expect(store.value).toBeNull();
  });
});
