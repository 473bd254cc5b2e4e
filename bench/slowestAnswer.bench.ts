// The slowest answer while the host does one long job (issue 33, part 8): `app:info` is
// pinged every 10 ms and the row is the longest a ping waited past its due time.
// - A ChatGPT file with 10,000 versions of one reply imported; floor: the same pings for
//   the same time with the host idle (on this shared machine the scheduler alone makes
//   pings wait).
// - An 8,000-page PDF attached; floor: the same pings while the app's PDF worker
//   (extractPdfText) parses that PDF and the main thread does nothing else (the same
//   window, the same CPU taken): what is left above it is the attachment's own main-thread work.
// A second figure does not depend on the machine's load: the most CPU time the main thread
// spent between two turns of its event loop (process.threadCpuUsage, read on every turn).
// `STEPWISE_BENCH_ONLY=import` or `=pdf` runs one; `STEPWISE_BENCH_ROUNDS` (default 20).
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { interleave, ms, ratioRow, summarize, type Bench, type BenchRow } from './benchKit';
import { pdfWithPages } from '../tests/support/attachmentFixtures';
import { extractPdfText } from '../src/main/core/attachments/pdfText';

const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
const ONLY = process.env.STEPWISE_BENCH_ONLY ?? '';

/** One question with `versions` replies in ChatGPT's conversations.json format (about 3 MB for 10,000). */
function manyVersions(versions: number, round: number): string {
  const node = (id: string, parent: string | null, children: string[], role?: string, text?: string) => ({
    id,
    parent,
    children,
    message: role
      ? { id, author: { role }, content: { content_type: 'text', parts: [text ?? id] }, create_time: 1_700_000_000 }
      : null,
  });
  const replies = Array.from({ length: versions }, (_, i) => `r${i}`);
  const mapping: Record<string, unknown> = {
    root: node('root', null, ['q']),
    q: node('q', 'root', replies, 'user', `Round ${round}: which colour?`),
  };
  for (const id of replies)
    mapping[id] = node(id, 'q', [], 'assistant', `Reply ${id} of round ${round}: the widget config holds entries.`);
  return JSON.stringify([{ title: `Many versions ${round}`, mapping, current_node: `r${versions - 1}` }]);
}

/** 8,000 pages of one line each (about 2.3 MB, as the file). */
const bigPdf = (round: number) =>
  pdfWithPages(8000, 1, (p) => `Round ${round} page ${p + 1}: the widget config holds entries to check`);

const bench: Bench = {
  title: 'The slowest app:info answer during a long import or attachment',
  async run() {
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-slowest-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
    const cpu = () => {
      const used = process.threadCpuUsage();
      return (used.user + used.system) / 1000;
    };
    /** The longest CPU stretch of the main thread between event-loop turns, per app round. */
    const stretches: Record<string, number[]> = { import: [], pdf: [] };
    /** Runs `work` while pinging every 10 ms; resolves with the longest wait of a ping. */
    async function whilePinging(work: () => Promise<unknown>, stretch?: number[]): Promise<number> {
      let worst = 0;
      let done = false;
      let last = cpu();
      let longest = 0;
      const turn = () => {
        const now = cpu();
        longest = Math.max(longest, now - last);
        last = now;
        if (!done) setImmediate(turn);
      };
      if (stretch) setImmediate(turn);
      const pinging = (async () => {
        while (!done) {
          const due = performance.now() + 10;
          await new Promise((r) => setTimeout(r, 10));
          const info = await core.dispatch('app:info', {});
          if (!info.ok) throw new Error(info.error.message);
          worst = Math.max(worst, performance.now() - due);
        }
      })();
      try {
        await work();
      } finally {
        done = true;
        await pinging;
      }
      stretch?.push(longest);
      return worst;
    }
    const rows: BenchRow[] = [];
    try {
      // The tokenizer's table is built once, on a timer after start-up: not the import's doing.
      await new Promise((r) => setTimeout(r, 3000));
      if (!ONLY || ONLY === 'import') {
        let round = 0;
        let lastMs = 1000;
        const took: number[] = [];
        const result = await interleave(
          {
            import: () => {
              const content = manyVersions(10_000, ++round);
              return whilePinging(async () => {
                const start = performance.now();
                const imported = await core.dispatch('import:conversation', { content });
                if (!imported.ok) throw new Error(imported.error.message);
                lastMs = performance.now() - start;
                took.push(lastMs);
              }, stretches.import);
            },
            idle: () => whilePinging(() => new Promise((r) => setTimeout(r, lastMs))),
          },
          { rounds: ROUNDS, warmup: 1 },
        );
        const whole = summarize(took.slice(1));
        const cpuStretch = summarize(stretches.import!.slice(1));
        rows.push(
          ratioRow(
            'ChatGPT file, 10,000 versions of one reply: longest app:info ping wait while importing',
            result.import,
            result.idle,
            'the same pings for as long, host idle',
            '≤ 500 ms',
          ),
          {
            measure: 'that import: longest CPU time of the main thread between event-loop turns',
            rounds: cpuStretch.rounds,
            'app median': ms(cpuStretch.median),
            'app min': ms(cpuStretch.min),
            goal: '—',
          },
          {
            measure: 'that import: import:conversation → answered',
            rounds: whole.rounds,
            'app median': ms(whole.median),
            'app min': ms(whole.min),
            goal: '—',
          },
        );
      }
      if (!ONLY || ONLY === 'pdf') {
        let round = 0;
        const took: number[] = [];
        let withoutText = 0;
        const result = await interleave(
          {
            pdf: () => {
              const data = bigPdf(++round).toString('base64');
              return whilePinging(async () => {
                const start = performance.now();
                const stored = await core.dispatch('attachments:add', {
                  name: 'pages.pdf',
                  mimeType: 'application/pdf',
                  data,
                });
                if (!stored.ok) throw new Error(stored.error.message);
                took.push(performance.now() - start);
                if ((stored.value as { note?: string }).note) withoutText++;
              }, stretches.pdf);
            },
            bare: () => {
              const pdf = bigPdf(++round);
              return whilePinging(() => extractPdfText(pdf, path.join(root, `bare-${round}.txt`)));
            },
          },
          { rounds: ROUNDS, warmup: 1 },
        );
        const cpuStretch = summarize(stretches.pdf!.slice(1));
        const whole = summarize(took.slice(1));
        rows.push(
          {
            measure: 'that PDF: longest CPU time of the main thread between event-loop turns',
            rounds: cpuStretch.rounds,
            'app median': ms(cpuStretch.median),
            'app min': ms(cpuStretch.min),
            goal: '—',
          },
          ratioRow(
            '8,000-page PDF attached: longest app:info ping wait',
            result.pdf,
            result.bare,
            "the same pings while the app's PDF worker parses that PDF, main thread idle",
            '≤ 250 ms',
          ),
          {
            measure: `that PDF: attachments:add → answered (${withoutText} of ${took.length} over the text budget)`,
            rounds: whole.rounds,
            'app median': ms(whole.median),
            'app min': ms(whole.min),
            goal: '—',
          },
        );
      }
      return rows;
    } finally {
      core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
