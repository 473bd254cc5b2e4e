// The task-planning guidance is editable by users: a task-planning.md in the data
// directory replaces the shipped one, read before every request.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let core: ReturnType<typeof createNodeCore>;

beforeEach(() => {
  dir = makeTempDir('stepwise-planning-');
  core = createNodeCore({ dataDir: dir, env: {} });
});

afterEach(() => {
  core.close();
  removeDir(dir);
});

const prompt = (conversationId: string) => core.prompts.build({ conversationId, agentId: 'main' }).text;

describe('task-planning guidance', () => {
  it('uses the shipped guidance until the user puts a task-planning.md in the data directory', () => {
    const { id } = core.conversations.create('Planning');
    expect(prompt(id)).toContain('## Task planning');

    fs.writeFileSync(
      path.join(dir, 'task-planning.md'),
      '<!-- all -->\nAlways plan in exactly three steps.\n<!-- granular -->\nOnly for granular tools.\n',
    );
    const text = prompt(id);
    expect(text).toContain('Always plan in exactly three steps.');
    expect(text).not.toContain('## Task planning');
    expect(text).not.toContain('Only for granular tools.');
  });

  it('falls back to the shipped guidance when the file is empty', () => {
    const { id } = core.conversations.create('Planning');
    fs.writeFileSync(path.join(dir, 'task-planning.md'), '   \n');
    expect(prompt(id)).toContain('## Task planning');
  });
});
