import type { Page } from 'playwright-core';

// What the task benches run in the page, as text (tsx would wrap named functions in a
// helper the page lacks). `__arm(text, selector)` resolves `__done` with the page's clock
// when the element first contains `text`. It is armed once the page has drawn the previous
// change and then gone idle: a model's tool calls are seconds apart, so each one meets a
// page at rest (a send's own renders, of the user's message and the new reply, are over).
export const OBSERVER = `(() => {
  window.__want = null;
  window.__arm = (text, selector) =>
    new Promise((armed) =>
      requestAnimationFrame(() =>
        requestIdleCallback(() => {
          window.__seen = 0;
          window.__arrived = 0;
          window.__first = 0;
          window.__want = { text, selector };
          window.__done = new Promise((resolve) => (window.__resolve = resolve));
          armed();
        }, { timeout: 1000 }),
      ),
    );
  new MutationObserver(() => {
    const want = window.__want;
    if (want && !window.__seen && document.querySelector(want.selector)?.textContent.includes(want.text)) {
      window.__seen = performance.timeOrigin + performance.now();
      window.__resolve(window.__seen);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/**
 * How far the page's wall clock (performance.timeOrigin + now()) is ahead of this process's:
 * each process fixes its time origin on its own, and the two may differ by milliseconds,
 * as much as the path being timed. Of several round trips, the shortest bounds it best
 * (the error is at most half that round trip).
 */
export async function pageClockOffset(page: Page, now: () => number, tries = 25): Promise<number> {
  let best = { trip: Infinity, offset: 0 };
  for (let i = 0; i < tries; i++) {
    const before = now();
    const at = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
    const after = now();
    if (after - before < best.trip) best = { trip: after - before, offset: at - (before + after) / 2 };
  }
  return best.offset;
}

/** When `__done` resolved (the armed text was seen), on this process's clock. */
export async function seenAt(page: Page, text: string, offset: number, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`"${text}" did not reach the page within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    return (await Promise.race([page.evaluate('window.__done') as Promise<number>, timeout])) - offset;
  } finally {
    clearTimeout(timer);
  }
}
