// `board:export` written a page of lists at a time: the same text as the document rendered
// at once, in every format, and the app answers other calls while a big one runs.
// (How long the host is held: bench/taskShareLoad.bench.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { seedShareLists } from '../support/shareLists';
import { createExportReader } from '../../src/main/core/export/exportReader';
import { collectTasks, renderTasks } from '../../src/main/core/export/tasksExport';
import { boardExportChunks, boardExportText, writeBoardExport } from '../../src/main/core/export/boardExport';
import { ALL_OPEN } from '../../src/shared/boardView';

let h: ChatHarness;
const EXPORTED_AT = Date.UTC(2026, 10, 28, 6, 0, 0);

beforeAll(async () => {
  h = startChatCore(null);
  // Three and a half pages, and a few lists with history and odd titles.
  seedShareLists(h.core.db, 350, 4, (i) => (i % 7 === 0 ? `Äpfel, "quoted"\u202e ${i}` : `Project ${i}`));
  for (const title of ['First, with events', 'Second\nline']) {
    const { id } = await h.newConversation(title);
    await h.call('tasks:add', { conversationId: id, title: 'One' });
    await h.call('tasks:add', { conversationId: id, title: '=SUM(A1)' });
    await h.call('tasks:update', { conversationId: id, taskId: 1, patch: { status: 'in_progress' } });
  }
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('board:export a page at a time', () => {
  for (const format of ['md', 'json', 'csv'] as const) {
    it(`writes the same ${format} as the whole document rendered at once`, async () => {
      const reader = createExportReader(h.core.db);
      for (const filter of [ALL_OPEN, { ...ALL_OPEN, text: 'äpfel' }, { ...ALL_OPEN, text: 'nothing matches' }]) {
        const whole = renderTasks(collectTasks(reader, { scope: 'open', filter }, EXPORTED_AT), format);
        expect(await boardExportText(reader, filter, format, EXPORTED_AT)).toBe(whole);
      }
    });
  }

  it('streams into a private file, whole or not at all', async () => {
    const reader = createExportReader(h.core.db);
    const file = path.join(h.dataDir, 'board.csv');
    await writeBoardExport(file, boardExportChunks(reader, ALL_OPEN, 'csv', EXPORTED_AT), '\uFEFF');
    const whole = renderTasks(collectTasks(reader, { scope: 'open', filter: ALL_OPEN }, EXPORTED_AT), 'csv');
    expect(fs.readFileSync(file, 'utf8')).toBe(`\uFEFF${whole}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // A failing export leaves nothing behind, not even its partial file.
    async function* failing() {
      yield 'a,b\r\n';
      throw new Error('disk full');
    }
    const target = path.join(h.dataDir, 'failed.csv');
    await expect(writeBoardExport(target, failing())).rejects.toThrow(/disk full/);
    expect(fs.readdirSync(h.dataDir).filter((f) => f.startsWith('failed.csv'))).toEqual([]);
  });

  it('answers other calls while a big export runs', async () => {
    let exported = false;
    const running = h.call('board:export', { filter: { ...ALL_OPEN, statuses: [] }, format: 'json' }).then((result) => {
      exported = true;
      return result;
    });
    const info = await h.call('app:info', {});
    expect(typeof info.version).toBe('string');
    expect(exported).toBe(false);
    const result = await running;
    expect(result).toMatchObject({ kind: 'download', mimeType: 'application/json' });
    expect(JSON.parse((result as { text: string }).text).conversations).toHaveLength(352);
  });
});
