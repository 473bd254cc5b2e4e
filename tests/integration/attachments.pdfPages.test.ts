// A PDF whose pages all hang from the root of its page tree (as many generators write
// them) is read page by page from one walk of the tree (pdfPageList.ts): the installed
// pdf.js is the one the patch fits, and the text is whole and in order, the same as
// pdf.js itself reads from the same pages in a balanced tree.
// (How long the host waits meanwhile: bench/slowestAnswer.bench.ts, STEPWISE_BENCH_ONLY=pdf.)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { PAGE_LIST_FROM_BYTES, PAGE_LOOKUP } from '../../src/main/core/attachments/pdfPageList';
import { extractPdfText } from '../../src/main/core/attachments/pdfText';
import { pdfWithPages } from '../support/attachmentFixtures';
import { makeTempDir, removeDir } from '../support/tempDir';

const PAGES = 500;
const line = (p: number) => `Page ${p + 1} of the ledger: entry ${(p * 7919) % 10007}`;
let dir: string;

beforeAll(() => {
  dir = makeTempDir('stepwise-pdf-pages-');
});

afterAll(() => removeDir(dir));

/** What unpdf's own reader makes of the text, merged as the worker merges it. */
async function unpdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 }), {
    mergePages: true,
  });
  return text.trim();
}

describe('a PDF of many pages in one flat page tree', () => {
  it('runs on the pdf.js the page list was written for (exactly one place to change)', () => {
    const bundle = path.join(path.dirname(createRequire(import.meta.url).resolve('unpdf')), 'pdfjs.mjs');
    expect(fs.readFileSync(bundle, 'utf8').split(PAGE_LOOKUP)).toHaveLength(2);
  });

  it('has every page’s text, in order, as pdf.js reads the same pages from a balanced tree', async () => {
    const flatFile = path.join(dir, 'flat.txt');
    const flatPdf = pdfWithPages(PAGES, 1, line);
    // Big enough for the worker to load the page list.
    expect(flatPdf.length).toBeGreaterThanOrEqual(PAGE_LIST_FROM_BYTES);
    const flat = await extractPdfText(flatPdf, flatFile);
    expect(flat).toEqual({ chars: expect.any(Number), pages: PAGES });
    const text = fs.readFileSync(flatFile, 'utf8');
    expect(text.split('\n')).toEqual(Array.from({ length: PAGES }, (_, p) => line(p)));
    // A tree of 25-page nodes: pdf.js skips whole nodes by their counts, no walk over every page.
    const balanced = pdfWithPages(PAGES, 1, line, 25);
    expect(await unpdfText(balanced)).toBe(text);
    const treeFile = path.join(dir, 'tree.txt');
    expect(await extractPdfText(balanced, treeFile)).toEqual(flat);
    expect(fs.readFileSync(treeFile, 'utf8')).toBe(text);
  });

  it('reads a page tree that points nowhere as pdf.js itself does', async () => {
    const broken = Buffer.from(
      pdfWithPages(30, 1, line).toString('latin1').replace('/Kids [4 0 R', '/Kids [999 0 R'),
      'latin1',
    );
    const file = path.join(dir, 'broken.txt');
    const document = await getDocumentProxy(new Uint8Array(broken), { verbosity: 0 });
    expect(await extractPdfText(broken, file)).toEqual({ chars: 0, pages: document.numPages });
    expect(fs.readFileSync(file, 'utf8')).toBe(await unpdfText(broken));
  });
});
