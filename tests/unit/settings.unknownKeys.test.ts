// A settings change touches only the fields it names: the others keep their values, and
// keys this version does not know (written by a newer Stepwise) survive.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;

beforeEach(() => {
  dir = makeTempDir('stepwise-settings-keys-');
});

afterEach(() => removeDir(dir));

it('keeps the other settings and unknown keys when it saves a change', async () => {
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ theme: 'dark', futureFeature: { on: true } }));
  const core = createNodeCore({ dataDir: dir, env: {} });
  try {
    const result = await core.dispatch('settings:update', { patch: { temperature: 0.2 } });
    expect(result.ok).toBe(true);
    const saved = JSON.parse(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8'));
    expect(saved).toMatchObject({ theme: 'dark', temperature: 0.2, futureFeature: { on: true } });
    expect(core.notices.list()).toEqual([]);
    await core.dispatch('settings:update', { patch: { workerConcurrency: 2 } });
    await core.dispatch('settings:update', { patch: { taskToolStyle: 'granular' } });
    expect(core.providers.view()).toMatchObject({
      theme: 'dark',
      temperature: 0.2,
      workerConcurrency: 2,
      taskToolStyle: 'granular',
    });
  } finally {
    core.close();
  }
});
