// The first send in a 100k-message conversation whose token counts nobody has cached (an
// import, or a database written by an older version): each round is a fresh host process
// (bench/support/firstSend.ts) timing send → request at the model and its peak RSS,
// interleaved with its floor, the same first send in a new conversation of the same data dir.
// A third variant is the first send after a restart: the same data as a previous session
// leaves it (every message's token count stored, migration 27, and the summary its first
// send stored: a conversation past the model's window is compacted once, not at every
// start), against the second, warm send of that process (goal ≤ 1.2×).
// `STEPWISE_BENCH_ONLY=restarted` runs that variant alone.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { countTokens } from 'gpt-tokenizer';
import { registerRawImports } from './rawImports';
import { interleave, ratioRow, summarize, type Bench, type BenchRow, type Summary } from './benchKit';

const MESSAGES = Math.round(100_000 * Number(process.env.STEPWISE_BENCH_SCALE ?? 1));
const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
const run = promisify(execFile);
const ONLY = process.env.STEPWISE_BENCH_ONLY?.split(',');
/** The model decides the context window: the default (32k) unless STEPWISE_BENCH_MODEL names one (gpt-4.1: 1M). */
const MODEL = process.env.STEPWISE_BENCH_MODEL ?? 'scripted';
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Long enough to be real (a model's answer of a few sentences), varied so no two texts are equal. */
const answer = (i: number) =>
  `Answer ${i}: the widget-${i % 97} config had ${i % 13} issues; module ${i % 31} now reads **every** entry, ` +
  `and \`check(${i})\` reports what changed. See [the notes](https://example.com/${i}).`;

/** Every message's count stored, as the app stores them once written (messages.tokens). */
function storeCounts(dataDir: string): void {
  const db = new Database(path.join(dataDir, 'stepwise.db'));
  try {
    const rows = db.prepare('SELECT id, content FROM messages').all() as { id: number; content: string }[];
    const store = db.prepare('UPDATE messages SET tokens = ? WHERE id = ?');
    db.transaction(() => {
      for (const row of rows) store.run(countTokens(row.content), row.id);
    })();
  } finally {
    db.close();
  }
}

async function seed(dataDir: string): Promise<string> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const core = createNodeCore({ dataDir, env: { STEPWISE_MODEL: 'scripted' }, chat: { log: () => {} } });
  const { id } = core.conversations.create('Imported');
  core.db.transaction(() => {
    for (let i = 1; i <= MESSAGES; i++) {
      core.messages.insert({
        conversationId: id,
        role: i % 2 ? 'user' : 'assistant',
        content: i % 2 ? `Question ${i}: what about widget-${i % 97}?` : answer(i),
      });
    }
  })();
  core.close();
  return id;
}

const bench: Bench = {
  title: `First send in an imported ${MESSAGES.toLocaleString('en')}-message conversation (no cached token counts)`,
  async run() {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-imported-'));
    const dataDir = path.join(root, 'data');
    try {
      const id = await seed(dataDir);
      const child = path.join(import.meta.dirname, 'support/firstSend.ts');
      const rss: Record<'imported' | 'fresh' | 'restarted', number[]> = { imported: [], fresh: [], restarted: [] };
      const pristine = path.join(root, 'pristine');
      fs.cpSync(dataDir, pristine, { recursive: true });
      const counted = path.join(root, 'counted');
      fs.cpSync(dataDir, counted, { recursive: true });
      storeCounts(counted);
      // The previous session: its first send compacted the history past the window (a model
      // round trip for the summary) and stored the summary; a restart finds it there.
      await run(process.execPath, ['--import', 'tsx', child, counted, id, MODEL, ''], { maxBuffer: 1 << 20 });
      const warm: number[] = [];
      const once = async (which: 'imported' | 'fresh' | 'restarted') => {
        // Every round starts from the same database: a first send may store a summary.
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.cpSync(which === 'restarted' ? counted : pristine, dataDir, { recursive: true });
        const args = [child, dataDir, which === 'fresh' ? 'new' : id, MODEL, which === 'restarted' ? 'twice' : ''];
        const { stdout } = await run(process.execPath, ['--import', 'tsx', ...args], { maxBuffer: 1 << 20 });
        const out = JSON.parse(stdout) as { elapsed: number; peakRss: number; warm: number | null };
        rss[which].push(out.peakRss);
        if (out.warm !== null) warm.push(out.warm);
        return out.elapsed;
      };
      const variants = {
        imported: () => once('imported'),
        fresh: () => once('fresh'),
        restarted: () => once('restarted'),
      };
      const picked = ONLY
        ? Object.fromEntries(Object.entries(variants).filter(([name]) => ONLY.includes(name)))
        : variants;
      const result = (await interleave(picked, { rounds: ROUNDS, warmup: 1 })) as Partial<
        Record<keyof typeof variants, Summary>
      >;
      const peak = (which: 'imported' | 'fresh') => summarize(rss[which]);
      const rows: BenchRow[] = [];
      if (result.restarted)
        rows.push(
          ratioRow(
            `first send after a restart, ${MESSAGES.toLocaleString('en')} messages, counts and summary stored (${MODEL})`,
            result.restarted,
            summarize(warm.slice(-ROUNDS)),
            'the warm (second) send of that process',
            '≤ 1.2×',
          ),
        );
      if (!result.imported || !result.fresh) return rows;
      rows.push(
        ratioRow(
          `first send → reply's request at the model, imported ${MESSAGES.toLocaleString('en')} messages (${MODEL})`,
          result.imported,
          result.fresh,
          'first send in a new conversation',
          '≤ 300 ms',
        ),
        {
          measure: 'peak host RSS of that process (median / max)',
          'app median': mib(peak('imported').median),
          'app min': mib(Math.max(...rss.imported)),
          floor: 'the new-conversation send',
          'floor median': mib(peak('fresh').median),
          goal: '≤ 250 MiB',
        },
      );
      return rows;
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
