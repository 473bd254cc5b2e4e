// pdf.js (the build unpdf bundles) finds page N by walking the page tree from its root
// every time (`Catalog.getPageDict`): a flat tree of N pages, as many generators write,
// costs N²/2 steps to read every page, which ran an 8,000-page PDF into the parse budget
// (docs/performance.md, "Slowest answer during long jobs"). pdf.js already has a one-pass
// walk of the whole tree, in order (`Catalog.getAllPageDicts`, used to recover broken
// files); the text worker loads the bundle with `getPage` asking that list first. A page
// the list lacks or could not read is looked up the usual way, so its error is pdf.js's own.
// The patch is an exact text of this pdf.js version: when it is not found (another
// version of unpdf), the bundle is loaded unchanged and only the speed differs
// (tests/integration/attachments.pdfPages.test.ts fails then, to say so). The worker
// (pdfText.ts) applies it: its code is a string, so the texts travel in its workerData.

/** In `PDFDocument.getPage`: the walk from the root for every page. */
export const PAGE_LOOKUP = ':n.getPageDict(e),a=a.then(([t,r])=>new Page(';

/** The same place: the page from the tree's one-pass list, made once per document. */
export const PAGE_FROM_LIST =
  ':(n.stepwisePageDicts??=n.getAllPageDicts().catch(()=>null)).then(m=>{let p=m?.get(e);' +
  'return p&&!(p[0] instanceof Error)?p:n.getPageDict(e)}),a=a.then(([t,r])=>new Page(';

/**
 * Smaller files have too few pages for the walks to add up: they skip writing and loading
 * a patched copy of the bundle, which costs the worker a little at every start.
 */
export const PAGE_LIST_FROM_BYTES = 64 * 1024;
