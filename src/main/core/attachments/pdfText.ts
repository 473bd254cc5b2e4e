// A PDF's text, for models (which get PDFs as text). unpdf bundles a serverless build of
// pdf.js with no native or platform-specific parts. It runs in a worker thread with a
// time and a heap budget: pdf.js parses synchronously for seconds on a large file, which
// on the host's main thread would stall every conversation and call meanwhile.
// The worker writes the text to its file itself and sends back only its length: a large
// text received as one string and written to SQLite in one statement held the main thread
// (docs/performance.md, "Figures behind the code").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PAGE_FROM_LIST, PAGE_LIST_FROM_BYTES, PAGE_LOOKUP } from './pdfPageList';

export interface PdfBudget {
  /** Longer than this and the text is given up (the file is still attached). */
  timeMs: number;
  /** The worker's V8 heap limit. */
  heapMb: number;
}

/** Room for a large text-heavy PDF on a busy machine (docs/performance.md). */
export const PDF_BUDGET: PdfBudget = { timeMs: 60_000, heapMb: 1024 };

export type PdfTextResult =
  /** The text is in the file the caller named (empty when the PDF holds no text). */
  | { chars: number; pages: number }
  /** The file is not a readable PDF. */
  | { error: string }
  /** Readable maybe, but its text did not fit in the budget: attach without it. */
  | { overBudget: string };

// Plain CommonJS evaluated in the worker: no file of ours to find at run time in any of
// the builds (electron-vite, the browser host, tsx, vitest). `unpdf` is the path main resolved.
const WORKER_SOURCE = `
const { parentPort, threadId, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
(async () => {
  try {
    const unpdf = require(workerData.unpdf);
    // pdf.js with each page taken from one walk of the page tree (pdfPageList.ts) for a file
    // big enough to have many pages; the bundle as it is when the patch does not fit this version.
    const bundle =
      workerData.bytes.length >= workerData.pageListFrom
        ? fs.readFileSync(path.join(path.dirname(workerData.unpdf), 'pdfjs.mjs'), 'utf8')
        : '';
    const at = bundle.indexOf(workerData.pageLookup);
    if (at >= 0 && bundle.indexOf(workerData.pageLookup, at + 1) < 0) {
      const patched = bundle.slice(0, at) + workerData.pageFromList + bundle.slice(at + workerData.pageLookup.length);
      // A private file beside the text, gone once loaded (a data: URL compiled several times
      // slower); one left by a crash is a leftover the start-up collection removes.
      const moduleFile = workerData.textFile + '.' + process.pid + '-' + threadId + '.pdfjs.mjs';
      fs.writeFileSync(moduleFile, patched, { mode: 0o600 });
      try {
        await unpdf.definePDFJSModule(() => import(pathToFileURL(moduleFile).href));
      } finally {
        fs.rmSync(moduleFile, { force: true });
      }
    }
    const { getDocumentProxy } = unpdf;
    // verbosity 0: pdf.js would print warnings about broken files to the console.
    const document = await getDocumentProxy(workerData.bytes, { verbosity: 0 });
    const totalPages = document.numPages;
    // One page at a time, each let go once read: unpdf's extractText asks for every page at
    // once and holds them all (744 MB of heap for 8,000 pages), and collecting that heap
    // kept V8's helper threads busy beside the host's main thread for the whole parse.
    // The text is unpdf's merged text (the same joins and whitespace).
    const texts = [];
    for (let number = 1; number <= totalPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) if (item.str != null) text += item.str + (item.hasEOL ? '\\n' : '');
      texts.push(text);
      page.cleanup();
    }
    const merged = texts.join('\\n').replace(/[^\\S\\n]+/g, ' ').replace(/ ?\\n ?/g, '\\n').replace(/\\n{3,}/g, '\\n\\n');
    const trimmed = merged.trim();
    // Whole or not at all, private like every file of the data directory; a worker stopped
    // mid-write leaves only the temporary file, which the start-up collection removes.
    const temporary = workerData.textFile + '.' + process.pid + '-' + threadId + '.tmp';
    fs.writeFileSync(temporary, trimmed, { mode: 0o600 });
    fs.renameSync(temporary, workerData.textFile);
    parentPort.postMessage({ chars: trimmed.length, pages: totalPages });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
})();
`;

let unpdfPath: string | null = null;

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

/** Extracts the text of `bytes` into `textFile` (written only when the text is whole). */
export function extractPdfText(
  bytes: Buffer,
  textFile: string,
  budget: PdfBudget = PDF_BUDGET,
): Promise<PdfTextResult> {
  unpdfPath ??= createRequire(import.meta.url).resolve('unpdf');
  // A copy the worker owns (the Buffer may be a slice of a shared pool), moved, not cloned.
  const owned = new Uint8Array(bytes);
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        unpdf: unpdfPath,
        bytes: owned,
        textFile,
        pageLookup: PAGE_LOOKUP,
        pageFromList: PAGE_FROM_LIST,
        pageListFrom: PAGE_LIST_FROM_BYTES,
      },
      transferList: [owned.buffer],
      resourceLimits: { maxOldGenerationSizeMb: budget.heapMb },
      stdout: true,
      stderr: true,
    });
    const settle = (result: PdfTextResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    const timer = setTimeout(
      () => settle({ overBudget: `reading its text took longer than ${seconds(budget.timeMs)}` }),
      budget.timeMs,
    );
    worker.on('message', (result: PdfTextResult) => settle(result));
    worker.on('error', (error: Error & { code?: string }) =>
      settle(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { overBudget: `reading its text needed more than ${budget.heapMb} MB of memory` }
          : { error: error.message },
      ),
    );
    worker.on('exit', () => settle({ error: 'the PDF reader stopped unexpectedly' }));
  });
}
