// The sidebar's search for a common word ("the", in nearly every message): across 50,000
// conversations of 2 messages each, and across one conversation of 100,000 messages.
// Each through the contract (`conversations:list`, the first page of 100, as the sidebar
// asks) against its floor in the same interleaved run: the bare FTS5 query for the newest
// 100 matching rows.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { interleave, ratioRow, type Bench, type BenchRow } from './benchKit';

const SCALE = Number(process.env.STEPWISE_BENCH_SCALE ?? 1);
const CONVERSATIONS = Math.round(50_000 * SCALE);
const ONE_CONVERSATION = Math.round(100_000 * SCALE);
const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
const WORD = 'the';

const question = (i: number) => `Can you check the config of widget-${i % 97} before the release?`;
const answer = (i: number) =>
  `Sure: the config of widget-${i % 97} had ${i % 13} issues, and the fix is in module ${i % 31}.`;

async function scale(
  name: string,
  seed: (core: ReturnType<typeof import('../src/main/core/createNodeCore').createNodeCore>) => void,
): Promise<BenchRow> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-search-'));
  const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
  try {
    core.db.transaction(() => seed(core))();
    const floor = core.db.prepare(
      'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 100',
    );
    const result = await interleave(
      {
        app: async () => {
          const listed = await core.dispatch('conversations:list', { query: WORD, limit: 100 });
          if (!listed.ok || !(listed.value as { items: unknown[] }).items.length)
            throw new Error('the search found nothing');
        },
        floor: () => floor.all(`"${WORD}"*`),
      },
      { rounds: ROUNDS },
    );
    return ratioRow(
      `search "${WORD}", ${name} → first page`,
      result.app,
      result.floor,
      'FTS5 MATCH, newest 100 rows',
      '≤ 30 ms',
    );
  } finally {
    core.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const bench: Bench = {
  title: 'Search for a common word',
  async run() {
    return [
      await scale(`${CONVERSATIONS.toLocaleString('en')} conversations of 2 messages`, (core) => {
        for (let i = 0; i < CONVERSATIONS; i++) {
          const { id } = core.conversations.create(`Project ${i} — notes on topic ${i % 97}`);
          if (i % 2500 === 0) core.conversations.setPinned(id, true); // 20 pinned
          core.messages.insert({ conversationId: id, role: 'user', content: question(i) });
          core.messages.insert({ conversationId: id, role: 'assistant', content: answer(i) });
        }
      }),
      await scale(`${ONE_CONVERSATION.toLocaleString('en')} messages of one conversation`, (core) => {
        const { id } = core.conversations.create('One long conversation');
        for (let i = 0; i < ONE_CONVERSATION; i++) {
          core.messages.insert({
            conversationId: id,
            role: i % 2 ? 'assistant' : 'user',
            content: i % 2 ? answer(i) : question(i),
          });
        }
        for (let i = 0; i < 100; i++) core.conversations.create(`Other ${i}`);
      }),
    ];
  },
};

export default bench;
