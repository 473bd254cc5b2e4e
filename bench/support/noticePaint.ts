// When the page painted "Updating your data…", read from the page's own paint timing rather
// than from Playwright seeing the text: Playwright's check runs in the page, so a page busy
// right after its first paint (the app loading behind the notice) would report the notice
// late by however long that work takes. The floor is the same notice as a bare page from a
// bare Node server, in the same browser, with the host's headers: what this Chromium takes
// to paint any such page. Without them the floor would skip what the host's
// Cross-Origin-Opener-Policy costs every page: the browser swaps the tab into a new
// renderer process (docs/performance.md, issue 39 round 10).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { UPDATING_TEXT, updatingPage } from '../../src/main/core/db/updatingPage';
import { securityHeaders } from '../../src/main/host/securityHeaders';

const KEY = 'stepwise-bench-notice-paint';

/** Before the page's first navigation: keeps the notice's first paint (survives a reload). */
export async function recordNoticePaint(page: Page): Promise<void> {
  await page.addInitScript(
    ({ key, text }) => {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.name !== 'first-contentful-paint' || !document.body?.textContent?.includes(text)) continue;
          const paint = { epoch: performance.timeOrigin + entry.startTime, fromRequest: entry.startTime };
          sessionStorage.setItem(key, JSON.stringify(paint));
        }
      }).observe({ type: 'paint', buffered: true });
    },
    { key: KEY, text: UPDATING_TEXT },
  );
}

/** The notice's first paint: on the epoch clock, and from the page's request (null: none painted). */
export async function readNoticePaint(page: Page): Promise<{ epoch: number; fromRequest: number } | null> {
  const stored = await page.evaluate((key) => sessionStorage.getItem(key), KEY);
  return stored ? (JSON.parse(stored) as { epoch: number; fromRequest: number }) : null;
}

/** A bare server of the notice page, and a round that opens it: request → first paint, ms. */
export async function bareNoticePage(browser: Browser) {
  const html = updatingPage();
  const server = http.createServer((_, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...securityHeaders(port) }).end(html),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  return {
    async round(): Promise<number> {
      const page = await browser.newPage();
      try {
        await recordNoticePaint(page);
        await page.goto(url);
        await page.waitForFunction((key) => sessionStorage.getItem(key) !== null, KEY);
        return (await readNoticePaint(page))!.fromRequest;
      } finally {
        await page.close();
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
