// The sidebar's queries with 10,000 conversations (and 100,000 messages): the first page,
// a page deep in the list, a title search and a full-text search of message content,
// each through the contract (`conversations:list`) as the renderer calls it; and the
// sidebar's rows (`sidebar:rows`) without folders and with 20 of them.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { ms, time, type Bench, type BenchRow } from './benchKit';

const CONVERSATIONS = 10_000;
const MESSAGES_EACH = 10;

const bench: Bench = {
  title: `Sidebar queries with ${CONVERSATIONS.toLocaleString('en')} conversations`,
  async run() {
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-sidebar-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
    try {
      core.db.transaction(() => {
        for (let i = 0; i < CONVERSATIONS; i++) {
          const { id } = core.conversations.create(`Project ${i} — notes on topic ${i % 97}`);
          if (i % 50 === 0) core.conversations.setPinned(id, true);
          for (let m = 0; m < MESSAGES_EACH; m++) {
            core.messages.insert({
              conversationId: id,
              role: m % 2 ? 'assistant' : 'user',
              content: `Message ${m} about widget-${i}`,
            });
          }
        }
      })();
      const rows: BenchRow[] = [];
      const cases: Array<[string, Record<string, unknown>]> = [
        ['first page (100)', { offset: 0, limit: 100 }],
        ['page at offset 9,000', { offset: 9000, limit: 100 }],
        ['title search "topic 42"', { query: 'topic 42', limit: 100 }],
        ['content search "widget-4242"', { query: 'widget-4242', limit: 100 }],
      ];
      for (const [name, params] of cases) {
        const t = await time(() => core.dispatch('conversations:list', params), { runs: 50 });
        rows.push({ case: `conversations:list, ${name}`, runs: t.runs, p50: ms(t.p50), p95: ms(t.p95) });
      }
      // The sidebar without a search reads `sidebar:rows`: first without folders (the same
      // rows as conversations:list), then with a third of the conversations in 20 folders.
      const sidebarCases: Array<[string, Record<string, unknown>]> = [
        ['first page (100)', { offset: 0, limit: 100 }],
        ['page at offset 9,000', { offset: 9000, limit: 100 }],
      ];
      for (const withFolders of [false, true]) {
        if (withFolders) {
          core.db.transaction(() => {
            const folders = Array.from({ length: 20 }, (_, i) => core.folders.create(`Folder ${i}`));
            const ids = core.db.prepare('SELECT id FROM conversations').pluck().all() as string[];
            ids.forEach((id, i) => i % 3 === 0 && core.folders.move(id, folders[i % 20]!.id));
          })();
        }
        for (const [name, params] of sidebarCases) {
          const t = await time(() => core.dispatch('sidebar:rows', params), { runs: 50 });
          rows.push({
            case: `sidebar:rows, ${withFolders ? '20 folders' : 'no folders'}, ${name}`,
            runs: t.runs,
            p50: ms(t.p50),
            p95: ms(t.p95),
          });
        }
      }
      return rows;
    } finally {
      core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
