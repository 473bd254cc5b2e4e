// Start-up, search and the first-paint bundle, each against its floor in the same run:
//   - browser host start to its URL line with a 100k-message conversation and with 50k
//     conversations, against an empty data dir (interleaved);
//   - a search for a word found in every conversation, across 50k conversations, against
//     the bare FTS5 query for the same first page;
//   - the gzip size of what index.html loads before the first paint (tests/e2e/support/firstPaint.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { registerRawImports } from './rawImports';
import { interleave, kb, ratioRow, type Bench, type BenchRow } from './benchKit';
import { makeDataDir, ROOT, startHostProcess } from '../tests/e2e/support/app';
import { FIRST_PAINT_BUDGET, firstPaintBundle } from '../tests/e2e/support/firstPaint';

const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
const SCALE = Number(process.env.STEPWISE_BENCH_SCALE ?? 1);
const MESSAGES = Math.round(100_000 * SCALE);
const CONVERSATIONS = Math.round(50_000 * SCALE);

type Core = ReturnType<typeof import('../src/main/core/createNodeCore').createNodeCore>;

async function seeded(fill: (core: Core) => void): Promise<string> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const dataDir = path.join(makeDataDir(), 'data');
  const core = createNodeCore({ dataDir, env: {}, chat: { log: () => {} } });
  core.db.transaction(() => fill(core))();
  core.close();
  return dataDir;
}

const longConversation = (core: Core) => {
  const { id } = core.conversations.create('Long');
  for (let i = 1; i <= MESSAGES; i++) {
    core.messages.insert({
      conversationId: id,
      role: i % 2 ? 'user' : 'assistant',
      content: `Message ${i} about the plan and its steps.`,
    });
  }
};

const manyConversations = (core: Core) => {
  for (let i = 0; i < CONVERSATIONS; i++) {
    const { id } = core.conversations.create(`Project ${i} notes on topic ${i % 97}`);
    if (i % 500 === 0) core.conversations.setPinned(id, true);
    core.messages.insert({
      conversationId: id,
      role: 'user',
      content: `How should the widget-${i} report be written?`,
    });
    core.messages.insert({
      conversationId: id,
      role: 'assistant',
      content: `Write the report for widget-${i} in three short sections.`,
    });
  }
};

async function startupRows(empty: string, long: string, many: string): Promise<BenchRow[]> {
  const start = (dataDir: string) => async () => {
    const began = performance.now();
    const host = await startHostProcess({ dataDir });
    const elapsed = performance.now() - began;
    await host.stop();
    return elapsed;
  };
  const result = await interleave(
    { empty: start(empty), long: start(long), many: start(many) },
    { rounds: ROUNDS, warmup: 1 },
  );
  return [
    ratioRow(
      `host start → URL line, ${MESSAGES.toLocaleString('en')} messages`,
      result.long,
      result.empty,
      'empty data dir',
      '≤ 400 ms',
    ),
    ratioRow(
      `host start → URL line, ${CONVERSATIONS.toLocaleString('en')} conversations`,
      result.many,
      result.empty,
      'empty data dir',
      '≤ 400 ms',
    ),
  ];
}

async function searchRow(many: string): Promise<BenchRow> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const core = createNodeCore({ dataDir: many, env: {}, chat: { log: () => {} } });
  try {
    // The same first page the sidebar asks for, as the bare FTS5 query with no ranking rules.
    const bare = core.db.prepare(
      `SELECT DISTINCT m.conversation_id FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
       WHERE messages_fts MATCH ? ORDER BY messages_fts.rowid DESC LIMIT 100`,
    );
    const result = await interleave(
      {
        app: () => core.dispatch('conversations:list', { query: 'report', limit: 100 }),
        bare: () => bare.all('"report"*'),
      },
      { rounds: ROUNDS },
    );
    return ratioRow(
      `search a word in all ${CONVERSATIONS.toLocaleString('en')} conversations`,
      result.app,
      result.bare,
      'bare FTS5 query',
      '≤ 30 ms',
    );
  } finally {
    core.close();
  }
}

function bundleRow(): BenchRow {
  const bundle = firstPaintBundle(path.join(ROOT, 'out/renderer'));
  return {
    measure: `renderer before first paint (${bundle.files.length} files, gzip)`,
    'app median': kb(bundle.gzipBytes),
    goal: `≤ ${kb(FIRST_PAINT_BUDGET)}`,
    note: `${bundle.lazyChunks} chunks load on demand`,
  };
}

const bench: Bench = {
  title: 'Start-up, search and bundle',
  async run() {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
    const empty = await seeded(() => {});
    const long = await seeded(longConversation);
    const many = await seeded(manyConversations);
    try {
      return [...(await startupRows(empty, long, many)), await searchRow(many), bundleRow()];
    } finally {
      for (const dir of [empty, long, many]) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  },
};

export default bench;
