// A 10 MB PDF attached while the page keeps calling: the host pings `app:info` every 10 ms
// while it stores (and extracts the text of) the PDF, and the row is the longest a ping
// waited past its due time. The floor is the same pinging while a 10 MB text file is
// stored (hashing and writing, no parsing), interleaved with it round by round. A third
// variant stores a 2000×1500 PNG, whose thumbnail is made (in a worker) before it answers.
// A fourth is the PDF's own floor: the same pings while a bare worker parses the same PDF
// with unpdf and the main thread does nothing else. The longest wait over a 10–50 s parse
// on a loaded machine is mostly the scheduler's; this floor has the same window.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { registerRawImports } from './rawImports';
import { interleave, ms, ratioRow, summarize, type Bench, type BenchRow } from './benchKit';
import { pdfWithPages, pngOfSize } from '../tests/support/attachmentFixtures';

const ROUNDS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 20);
const MB = 1024 * 1024;

/** About 10 MB (under the 10 MB attachment limit): 1,850 pages of 70 lines. */
function bigPdf(round: number): Buffer {
  const pdf = pdfWithPages(
    1850,
    70,
    (p, l) => `Round ${round} page ${p + 1} line ${l + 1}: the widget config holds entries to check`,
  );
  if (pdf.length > 10 * MB) throw new Error(`the PDF is ${pdf.length} bytes, over the limit`);
  return pdf;
}

const BARE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { extractText, getDocumentProxy } = require(workerData.unpdf);
  const document = await getDocumentProxy(workerData.bytes, { verbosity: 0 });
  const { text } = await extractText(document, { mergePages: true });
  parentPort.postMessage(text.length);
})();
`;

/** unpdf in a worker and nothing else: resolves with the text's length. */
function bareParse(bytes: Buffer): Promise<number> {
  const owned = new Uint8Array(bytes);
  const worker = new Worker(BARE_WORKER, {
    eval: true,
    workerData: { unpdf: createRequire(import.meta.url).resolve('unpdf'), bytes: owned },
    transferList: [owned.buffer],
  });
  return new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => void worker.terminate());
}

const bench: Bench = {
  title: 'A 10 MB PDF attached while the host answers pings',
  async run() {
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-pdf-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
    const parse: number[] = [];
    const thumbnails: number[] = [];
    /** Stores the file while pinging every 10 ms; resolves with the longest wait of a ping. */
    async function storeWhilePinging(name: string, bytes: Buffer, timed?: number[]): Promise<number> {
      // Encoded before the pings start: the page does this, not the host.
      const data = bytes.toString('base64');
      const mimeType = name.endsWith('.pdf') ? 'application/pdf' : name.endsWith('.png') ? 'image/png' : 'text/plain';
      return whilePinging(async () => {
        const start = performance.now();
        const stored = await core.dispatch('attachments:add', { name, mimeType, data });
        timed?.push(performance.now() - start);
        if (!stored.ok) throw new Error(stored.error.message);
      });
    }
    /** Runs `work` while pinging every 10 ms; resolves with the longest wait of a ping. */
    async function whilePinging(work: () => Promise<unknown>): Promise<number> {
      let worst = 0;
      let done = false;
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
      return worst;
    }
    try {
      let round = 0;
      const result = await interleave(
        {
          pdf: () => storeWhilePinging('big.pdf', bigPdf(++round), parse),
          bare: () => {
            const pdf = bigPdf(++round);
            return whilePinging(() => bareParse(pdf));
          },
          text: () =>
            storeWhilePinging(
              'big.txt',
              Buffer.from(`${round++} ${'the widget config holds entries to check\n'.repeat(250_000)}`),
            ),
          // A new picture each time (one pixel wider), so none is found stored already.
          image: () => storeWhilePinging('photo.png', pngOfSize(2000 + ++round, 1500), thumbnails),
        },
        { rounds: ROUNDS, warmup: 1 },
      );
      const stored = summarize(parse);
      const thumbnailed = summarize(thumbnails);
      const rows: BenchRow[] = [
        ratioRow(
          '10 MB PDF attached: longest app:info ping wait',
          result.pdf,
          result.text,
          'the same while a 10 MB text file is stored',
          '≤ 50 ms',
        ),
        ratioRow(
          'the same',
          result.pdf,
          result.bare,
          'the same pings while a bare unpdf worker parses that PDF',
          '≤ 50 ms',
        ),
        {
          measure: '10 MB PDF: attachments:add → answered (text extracted)',
          rounds: stored.rounds,
          'app median': ms(stored.median),
          'app min': ms(stored.min),
          goal: '—',
        },
        ratioRow(
          '2000×1500 PNG attached: longest app:info ping wait',
          result.image,
          result.text,
          'the same while a 10 MB text file is stored',
          '≤ 50 ms',
        ),
        {
          measure: '2000×1500 PNG: attachments:add → answered (512×384 thumbnail made)',
          rounds: thumbnailed.rounds,
          'app median': ms(thumbnailed.median),
          'app min': ms(thumbnailed.min),
          goal: '—',
        },
      ];
      return rows;
    } finally {
      core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
