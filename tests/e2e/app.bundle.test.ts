// The first paint's budget (issue 25): what index.html loads before the page can paint
// stays within 160 kB gzip (support/firstPaint.ts says why), so a feature that lands in the entry chunk instead of a lazy
// one fails here rather than slowing every start.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_PAINT_BUDGET, firstPaintBundle } from './support/firstPaint';
import { ROOT } from './support/app';

describe('the built renderer', () => {
  it('loads at most 160 kB gzip before its first paint, and the rest on demand', () => {
    const bundle = firstPaintBundle(path.join(ROOT, 'out/renderer'));
    expect(bundle.files.some((file) => file.endsWith('.js'))).toBe(true);
    expect(bundle.files.some((file) => file.endsWith('.css'))).toBe(true);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(FIRST_PAINT_BUDGET);
    expect(bundle.lazyChunks).toBeGreaterThan(0);
  });
});
