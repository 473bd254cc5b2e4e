// Long conversations open at their newest window and load older messages as the user
// scrolls up, without the view jumping; a streamed reply arrives as deltas and its final
// text in the page and in the database equals what the server sent, byte for byte.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { type App } from './support/app';
import { appPerFile } from './support/appPerFile';

const COUNT = 1_000;
// Multi-byte text split across chunks at awkward places, with Markdown that a partial
// parse would render differently (an open fence, an unclosed emphasis).
const REPLY = [
  '# Résumé 📋\n\nThe **plan** has *three* steps — naïve ones first.\n\n',
  '```ts\nconst greeting = "héllo 世界";\n```\n\n',
  Array.from({ length: 60 }, (_, i) => `- step ${i}: ✓ done ${'·'.repeat(i % 7)}`).join('\n'),
  '\n\nEnd of reply ✅',
].join('');

const STEADY =
  Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of a steady reply, with **some** Markdown in it.\n\n`).join('') +
  'Steady end.';

const { app } = appPerFile({
  name: 'message-window',
  server: {
    script: (r) => {
      if (!r.body.stream) return { text: 'Streaming check' };
      // A reply streamed for a second or two, so the page's update rate shows.
      if (JSON.stringify(r.body.messages).includes('steadily')) return { text: STEADY, chunkSize: 4, chunkDelayMs: 2 };
      return { text: REPLY, chunkSize: 3 };
    },
  },
  env: { OPENAI_API_KEY: undefined },
  seed: (core) => {
    const long = core.conversations.create('Very long');
    core.db.transaction(() => {
      for (let i = 1; i <= COUNT; i++) {
        core.messages.insert({
          conversationId: long.id,
          role: i % 2 ? 'user' : 'assistant',
          content: `Line ${i}\n\nwith a second paragraph`,
        });
      }
    })();
  },
  ready: async () => {
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
  },
});

const oldestLoaded = (page: App['page']) =>
  page.evaluate(() =>
    Math.min(
      ...[...document.querySelectorAll('[data-message-id]')].map((el) => Number(el.getAttribute('data-message-id'))),
    ),
  );

describe('a long conversation', () => {
  it('loads older messages when scrolled to the top, keeping the view where it was', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Very long' }).click();
    const log = page.getByRole('log', { name: 'Messages' });
    await expect
      .poll(() => log.getByText(`Line ${COUNT}`, { exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    const firstInView = () =>
      log.evaluate((el) => {
        const top = el.getBoundingClientRect().top;
        const first = [...el.querySelectorAll('article')].find((a) => a.getBoundingClientRect().bottom > top + 1);
        return first
          ? { id: first.getAttribute('data-message-id')!, offset: first.getBoundingClientRect().top - top }
          : null;
      });
    const scrollTop = () => log.evaluate((el) => el.scrollTop);
    // Just short of where older messages load (600 px from the top); the rows there are
    // drawn and measured (estimated heights become real ones) before the view is taken.
    await log.evaluate((el) => el.scrollTo({ top: 700 }));
    let before = await firstInView();
    await expect
      .poll(async () => {
        const now = await firstInView();
        const settled = now !== null && now.id === before?.id && Math.abs(now.offset - before.offset) < 1;
        before = now;
        return settled;
      })
      .toBe(true);
    if (!before) throw new Error('no message in view');
    const anchor = before;
    // Only the newest window is loaded.
    const oldestBefore = await oldestLoaded(page);
    expect(oldestBefore).toBeGreaterThan(COUNT - 150);
    const shift = await scrollTop();
    expect(shift).toBeGreaterThan(600);
    // To the top: the row moves down by exactly the distance scrolled, older rows arrive
    // above, and it stays there.
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => oldestLoaded(page), { timeout: 10_000 }).toBeLessThan(oldestBefore);
    await expect.poll(scrollTop, { timeout: 10_000 }).toBeGreaterThan(100);
    // The restored scroll position and the row drawn at it arrive in separate frames: read
    // the row once it is drawn and has stopped moving.
    const rowOffset = () =>
      log.evaluate((el, id) => {
        const row = el.querySelector(`[data-message-id="${id}"]`);
        return row ? row.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
      }, anchor.id);
    let after = await rowOffset();
    await expect
      .poll(async () => {
        const now = await rowOffset();
        const settled = now !== null && after !== null && Math.abs(now - after) < 1;
        after = now;
        return settled;
      })
      .toBe(true);
    expect(Math.abs(after! - (anchor.offset + shift))).toBeLessThan(4);
    // Scrolling on to the top reaches the first message.
    await expect
      .poll(
        async () => {
          await log.evaluate((el) => el.scrollTo({ top: 0 }));
          return oldestLoaded(page);
        },
        { timeout: 30_000 },
      )
      .toBe(1);
  });

  it('a streamed reply ends exactly as the server sent it, in the page and in the database', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Write the résumé');
    await box.press('Enter');
    const reply = page.getByRole('article', { name: 'Assistant message' }).last();
    await expect.poll(() => reply.innerText(), { timeout: 15_000 }).toContain('End of reply ✅');
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    // Copy takes the text the page assembled from the deltas.
    await reply.getByRole('button', { name: 'Copy assistant message' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(REPLY);
    const { db } = openDatabase(app.dataDir, { readonly: true });
    try {
      const stored = db
        .prepare("SELECT content FROM messages WHERE role = 'assistant' ORDER BY id DESC LIMIT 1")
        .get() as { content: string };
      expect(stored.content).toBe(REPLY);
    } finally {
      db.close();
    }
    // The open fence and emphasis rendered as Markdown, not as raw marks.
    expect(await reply.locator('pre code').innerText()).toContain('const greeting = "héllo 世界";');
    expect(await reply.locator('strong').first().innerText()).toBe('plan');
  });

  it('shows a streaming reply live, about 20 times a second rather than at every frame', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    // Each time the reply's text on screen changes, the page notes when.
    await page.evaluate(() => {
      const el = document.body;
      const seen: number[] = [];
      let length = -1;
      new MutationObserver(() => {
        const articles = el.querySelectorAll('article[aria-label="Assistant message"]');
        const text = articles[articles.length - 1]?.textContent ?? '';
        if (text.length !== length) seen.push(performance.now());
        length = text.length;
      }).observe(el, { subtree: true, childList: true, characterData: true });
      (window as unknown as { seenChanges: number[] }).seenChanges = seen;
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Reply steadily');
    await box.press('Enter');
    const reply = page.getByRole('article', { name: 'Assistant message' }).last();
    await expect.poll(() => reply.innerText(), { timeout: 20_000 }).toContain('Steady end.');
    const seen = await page.evaluate(() => (window as unknown as { seenChanges: number[] }).seenChanges);
    const gaps = seen
      .slice(1)
      .map((at, i) => at - seen[i])
      .sort((a, b) => a - b);
    // Live: many updates while it streamed. Spaced: the typical one ≥ 40 ms after the last
    // (every frame would be 16 ms), since each update parses and paints the reply again.
    expect(gaps.length).toBeGreaterThan(8);
    expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(40);
  });
});
