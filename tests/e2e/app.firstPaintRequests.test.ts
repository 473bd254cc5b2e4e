// The first paint waits for the shell only (issue 39): of the requests the page makes, only
// the files index.html names (the shell's script and styles) start before the browser's
// first paint; the Markdown renderer (with math and highlighting) is fetched after it.
import path from 'node:path';
import { expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { ROOT } from './support/app';
import { firstPaintBundle } from './support/firstPaint';

const { app } = appPerFile({ name: 'firstPaintRequests' });

it('fetches nothing but the shell before the first paint, and the Markdown chunk after it', async () => {
  const page = app.page;
  await page.reload();
  // The preload starts after the first paint: wait until its request is made.
  await page.waitForFunction(() =>
    performance.getEntriesByType('resource').some((entry) => /\/assets\/Markdown-[^/]*\.js$/.test(entry.name)),
  );
  const { paint, requests } = await page.evaluate(() => ({
    paint: performance.getEntriesByName('first-paint')[0]?.startTime ?? null,
    requests: performance
      .getEntriesByType('resource')
      .map((entry) => ({ file: new URL(entry.name).pathname.replace(/^\//, ''), at: entry.startTime })),
  }));
  expect(paint).not.toBeNull();
  const shell = firstPaintBundle(path.join(ROOT, 'out/renderer')).files;
  const code = requests.filter((request) => /\.(js|css)$/.test(request.file));
  const beforePaint = code.filter((request) => request.at < paint!).map((request) => request.file);
  expect(beforePaint.length).toBeGreaterThan(0);
  for (const file of beforePaint) expect(shell).toContain(file);
  const markdown = code.filter((request) => request.file.startsWith('assets/Markdown-'));
  expect(markdown.length).toBeGreaterThan(0);
  for (const request of markdown) expect(request.at).toBeGreaterThanOrEqual(paint!);
});
