// Settings as the browser host keeps them: settings.json through conf, environment
// overrides, a corrupt file kept as .bak with a notice, and the API key in a 0600 file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { createFileSecretStore, KEY_FILE } from '../../src/main/core/settings/fileSecretStore';
import { SETTINGS_FILE } from '../../src/main/core/settings/settingsFile';
import { Settings, type SettingsView } from '../../src/shared/settings';
import type { IpcResult } from '../../src/shared/ipc';
import { tempDirPerTest } from '../support/tempDir';

// The first profile is made from the (absent) pre-profile settings: compared on its own.
const { profiles: _profiles, ...DEFAULTS } = Settings.parse({});
const storedKey = (core: ReturnType<typeof createNodeCore>) =>
  core.providers.connect({ profileId: 'default', model: 'm' }).apiKey;

function value<T>(result: IpcResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function withCore<T>(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  run: (core: ReturnType<typeof createNodeCore>) => Promise<T>,
) {
  const core = createNodeCore({ dataDir, env });
  try {
    return await run(core);
  } finally {
    core.close();
  }
}

describe('settings', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });
  const settingsFile = () => path.join(dir.path, SETTINGS_FILE);

  it('start from the defaults and persist a change in settings.json across restarts', async () => {
    await withCore(dir.path, {}, async (core) => {
      const view = value(await core.dispatch('settings:get', {})) as SettingsView;
      expect(view).toMatchObject(DEFAULTS);
      expect(view).toMatchObject({ canStoreKey: true, defaultModel: { profileId: 'default', model: 'gpt-4o-mini' } });
      expect(view.profiles).toEqual([
        expect.objectContaining({
          id: 'default',
          name: 'OpenAI',
          baseUrl: 'https://api.openai.com/v1',
          key: 'none',
          readOnly: false,
          locked: [],
        }),
      ]);
      const events: unknown[] = [];
      core.bus.subscribe((event, payload) => event === 'settings:changed' && events.push(payload));
      const updated = value(
        await core.dispatch('settings:update', { patch: { theme: 'dark', temperature: 0.2 } }),
      ) as SettingsView;
      expect(updated).toMatchObject({ theme: 'dark', temperature: 0.2 });
      expect(events).toEqual([updated]);
    });
    expect(JSON.parse(fs.readFileSync(settingsFile(), 'utf8'))).toMatchObject({ theme: 'dark', temperature: 0.2 });
    await withCore(dir.path, {}, async (core) => {
      expect(value(await core.dispatch('settings:get', {}))).toMatchObject({ theme: 'dark', temperature: 0.2 });
    });
  });

  it('reject an out-of-range value with a clear error and keep the stored settings', async () => {
    await withCore(dir.path, {}, async (core) => {
      const result = await core.dispatch('settings:update', { patch: { temperature: 9 } });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('invalid_request');
        expect(result.error.message).toMatch(/patch\.temperature/);
      }
      expect(value(await core.dispatch('settings:get', {}))).toMatchObject({ temperature: DEFAULTS.temperature });
    });
  });

  it.each([
    ['not JSON', '{"theme": "dark",,, oops', /not valid JSON/],
    [
      'a value outside the schema',
      JSON.stringify({ theme: 'purple', model: 'x' }),
      /does not match the settings schema/,
    ],
  ])(
    'fall back to defaults when settings.json is %s, keeping it as .bak with a notice',
    async (_what, content, reason) => {
      fs.writeFileSync(settingsFile(), content);
      await withCore(dir.path, {}, async (core) => {
        expect(value(await core.dispatch('settings:get', {}))).toMatchObject(DEFAULTS);
        const backup = `${settingsFile()}.bak`;
        expect(fs.readFileSync(backup, 'utf8')).toBe(content);
        const notices = core.notices.list();
        expect(notices).toHaveLength(1);
        expect(notices[0]).toMatchObject({ id: 'settings-reset', level: 'warning' });
        expect(notices[0].text).toMatch(reason);
        expect(notices[0].text).toContain(backup);
        // Settings keep working, and a change is written to a fresh, valid file.
        value(await core.dispatch('settings:update', { patch: { theme: 'light' } }));
        expect(JSON.parse(fs.readFileSync(settingsFile(), 'utf8'))).toMatchObject({ theme: 'light' });
      });
    },
  );

  it('load a file from an older version that lacks newer fields, filling in defaults', async () => {
    fs.writeFileSync(settingsFile(), JSON.stringify({ theme: 'dark' }));
    await withCore(dir.path, {}, async (core) => {
      expect(value(await core.dispatch('settings:get', {}))).toMatchObject({ ...DEFAULTS, theme: 'dark' });
      expect(core.notices.list()).toEqual([]);
      expect(fs.existsSync(`${settingsFile()}.bak`)).toBe(false);
    });
  });

  it('turn OPENAI_BASE_URL, STEPWISE_MODEL and OPENAI_API_KEY into a read-only "Environment" profile, never stored', async () => {
    const env = {
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      STEPWISE_MODEL: 'llama3.2',
      OPENAI_API_KEY: 'sk-from-env',
    };
    await withCore(dir.path, env, async (core) => {
      const view = value(await core.dispatch('settings:get', {})) as SettingsView;
      expect(view.profiles.map((p) => p.name)).toEqual(['Environment', 'OpenAI']);
      expect(view.profiles[0]).toMatchObject({
        id: 'env',
        readOnly: true,
        key: 'env',
        baseUrl: env.OPENAI_BASE_URL,
        defaultModel: 'llama3.2',
      });
      expect(view.profiles[0].locked.map((l) => l.variable).sort()).toEqual([
        'OPENAI_API_KEY',
        'OPENAI_BASE_URL',
        'STEPWISE_MODEL',
      ]);
      // New conversations use it until the user picks another model.
      expect(view.defaultModel).toEqual({ profileId: 'env', model: 'llama3.2' });
      expect(JSON.stringify(view)).not.toContain('sk-from-env');
      expect(core.providers.connect(null)).toMatchObject({
        baseUrl: env.OPENAI_BASE_URL,
        model: 'llama3.2',
        apiKey: 'sk-from-env',
      });
      const detailsOnly = await core.dispatch('providers:save', {
        profile: { id: 'env', name: 'Mine', preset: 'custom', baseUrl: 'http://x/v1' },
      });
      expect(detailsOnly.ok).toBe(true);
      const edit = await core.dispatch('providers:setKey', { id: 'env', key: 'sk-other' });
      expect(edit.ok).toBe(false);
      if (!edit.ok) expect(edit.error.message).toMatch(/OPENAI_BASE_URL.*read-only/);
      value(await core.dispatch('settings:update', { patch: { theme: 'light' } }));
    });
    const stored = fs.readFileSync(settingsFile(), 'utf8');
    expect(stored).not.toContain('sk-from-env');
    expect(stored).not.toContain('11434');
    // Without the environment, the stored profiles apply again.
    await withCore(dir.path, {}, async (core) => {
      const view = value(await core.dispatch('settings:get', {})) as SettingsView;
      expect(view.profiles.map((p) => p.name)).toEqual(['OpenAI']);
      expect(view.defaultModel).toEqual({ profileId: 'default', model: 'gpt-4o-mini' });
    });
  });

  it('turn a settings file from before profiles into a first profile, with its saved key', async () => {
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3' }),
    );
    fs.writeFileSync(path.join(dir.path, KEY_FILE), 'sk-old-key', { mode: 0o600 });
    await withCore(dir.path, {}, async (core) => {
      const view = value(await core.dispatch('settings:get', {})) as SettingsView;
      expect(view.profiles).toEqual([
        expect.objectContaining({
          id: 'default',
          name: 'Ollama',
          preset: 'ollama',
          baseUrl: 'http://127.0.0.1:11434/v1',
          defaultModel: 'qwen3',
          key: 'saved',
        }),
      ]);
      expect(storedKey(core)).toBe('sk-old-key');
    });
  });

  it('ignore empty environment variables', async () => {
    await withCore(dir.path, { OPENAI_BASE_URL: '', STEPWISE_MODEL: '', OPENAI_API_KEY: '' }, async (core) => {
      expect(value(await core.dispatch('settings:get', {}))).toMatchObject({
        ...DEFAULTS,
        defaultModel: { profileId: 'default', model: 'gpt-4o-mini' },
      });
    });
  });
});

describe('API key file', () => {
  const dir = tempDirPerTest({ beforeEach, afterEach });
  const keyFile = () => path.join(dir.path, KEY_FILE);

  it.skipIf(process.platform === 'win32')('is written with mode 0600, never shown, and forgotten on null', async () => {
    await withCore(dir.path, {}, async (core) => {
      const view = value(
        await core.dispatch('providers:setKey', { id: 'default', key: '  sk-test-123  ' }),
      ) as SettingsView;
      expect(view.profiles[0]).toMatchObject({ key: 'saved' });
      expect(JSON.stringify(view)).not.toContain('sk-test-123');
      expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(keyFile(), 'utf8'))).toEqual({
        stepwiseKeys: 1,
        keys: { default: { key: 'sk-test-123', baseUrl: 'https://api.openai.com/v1' } },
      });
      expect(storedKey(core)).toBe('sk-test-123');
      // Only the key file holds the key: not settings.json, not the database.
      const holders = fs
        .readdirSync(dir.path)
        .filter((f) => fs.readFileSync(path.join(dir.path, f)).includes('sk-test-123'));
      expect(holders).toEqual([KEY_FILE]);
    });
    await withCore(dir.path, {}, async (core) => {
      expect(storedKey(core)).toBe('sk-test-123');
      expect(
        (value(await core.dispatch('providers:setKey', { id: 'default', key: null })) as SettingsView).profiles[0],
      ).toMatchObject({ key: 'none' });
      expect(fs.existsSync(keyFile())).toBe(false);
    });
  });

  it.skipIf(process.platform === 'win32')('keeps mode 0600 when an existing, wider file is overwritten', async () => {
    fs.writeFileSync(keyFile(), 'old', { mode: 0o644 });
    await withCore(dir.path, {}, async (core) => {
      value(await core.dispatch('providers:setKey', { id: 'default', key: 'sk-new' }));
      expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
      expect(storedKey(core)).toBe('sk-new');
    });
  });

  it.skipIf(process.platform === 'win32')(
    'is made private at start-up when others could read it, and the user is told',
    async () => {
      fs.writeFileSync(keyFile(), 'sk-exposed', { mode: 0o644 });
      fs.chmodSync(keyFile(), 0o644);
      await withCore(dir.path, {}, async (core) => {
        expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
        expect(core.notices.list()).toEqual([expect.objectContaining({ id: 'key-file-exposed', level: 'warning' })]);
        expect(core.notices.list()[0].text).toMatch(/readable by other users.*replace the key/);
        expect(storedKey(core)).toBe('sk-exposed');
      });
    },
  );

  it.skipIf(process.platform === 'win32')(
    'is ignored when others can read it (a key file that could not be made private)',
    () => {
      fs.writeFileSync(keyFile(), 'sk-leaked', { mode: 0o644 });
      fs.chmodSync(keyFile(), 0o644);
      expect(createFileSecretStore(dir.path).read()).toBeNull();
    },
  );
});
