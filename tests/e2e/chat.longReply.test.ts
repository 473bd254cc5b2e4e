// A very long reply (hundreds of Markdown blocks) is parsed only where it is read: blocks
// far from the screen stay plain text with the same words, and become Markdown as they
// come near. Its text is the server's text, whole.
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';

const BLOCKS = 600;
const BUDGETED = 90;

const { app } = appPerFile({
  name: 'long-reply',
  seed: (core) => {
    const conversation = core.conversations.create('Very long reply');
    core.messages.insert({ conversationId: conversation.id, role: 'user', content: 'Write a lot' });
    const blocks = Array.from({ length: BLOCKS }, (_, i) => `Paragraph ${i + 1} has **bold ${i + 1}** words.`);
    core.messages.insert({ conversationId: conversation.id, role: 'assistant', content: blocks.join('\n\n') });
    // Fewer blocks than are ever left plain, but more text than one task parses (parseBudget.ts).
    const budgeted = core.conversations.create('Long but not lazy reply');
    core.messages.insert({ conversationId: budgeted.id, role: 'user', content: 'Write less' });
    const long = Array.from(
      { length: BUDGETED },
      (_, i) => `Block ${i + 1} has **strong ${i + 1}** words. ${'Filler words. '.repeat(30)}`,
    );
    core.messages.insert({ conversationId: budgeted.id, role: 'assistant', content: long.join('\n\n') });
  },
});

describe(`a reply of ${BLOCKS} blocks`, () => {
  it('opens at its end as Markdown, with the far blocks plain but all its words there', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Very long reply' }).click();
    const log = page.getByRole('log', { name: 'Messages' });
    await expect
      .poll(() => log.locator('strong', { hasText: `bold ${BLOCKS}` }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    const reply = log.getByRole('article').last();
    expect(await reply.locator('strong', { hasText: /^bold 1$/ }).count()).toBe(0);
    expect(await reply.locator('[data-pending]').count()).toBeGreaterThan(BLOCKS / 2);
    const text = await reply.locator('.markdown').textContent();
    // Plain blocks show the Markdown as written.
    for (const n of [1, 2, BLOCKS / 2]) expect(text).toContain(`Paragraph ${n} has **bold ${n}** words.`);
    expect(text).toContain(`Paragraph ${BLOCKS} has bold ${BLOCKS} words.`);
  });

  it('renders the first blocks as Markdown once they are scrolled to', async () => {
    const { page } = app;
    const log = page.getByRole('log', { name: 'Messages' });
    const first = log.locator('strong', { hasText: /^bold 1$/ });
    await expect
      .poll(
        async () => {
          await log.evaluate((el) => el.scrollTo({ top: 0 }));
          return first.isVisible();
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  });

  it('a reply of more text than one task parses becomes Markdown whole, a budget at a time', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Long but not lazy reply' }).click();
    const reply = page.getByRole('log', { name: 'Messages' }).getByRole('article').last();
    await expect
      .poll(() => reply.locator('strong', { hasText: `strong ${BUDGETED}` }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    await expect.poll(() => reply.locator('[data-pending]').count(), { timeout: 20_000 }).toBe(0);
    expect(await reply.locator('strong').count()).toBe(BUDGETED);
  });
});
