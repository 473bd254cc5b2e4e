// A 10,000-message conversation opens at its newest message and scrolls to its first,
// while the page keeps only the rows in view (the list is virtualized).
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';

const COUNT = 10_000;

const { app } = appPerFile({
  name: 'long-conversation',
  seed: (core) => {
    const conversation = core.conversations.create('Very long conversation');
    core.db.transaction(() => {
      for (let i = 1; i <= COUNT; i++) {
        core.messages.insert({
          conversationId: conversation.id,
          role: i % 2 ? 'user' : 'assistant',
          content: i % 2 ? `Question number ${i}` : `Answer number ${i} with **bold** text and \`code\`.`,
        });
      }
    })();
  },
});

describe('a conversation with 10,000 messages', () => {
  it('opens at the newest message and renders only the rows in view', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Very long conversation' }).click();
    const log = page.getByRole('log', { name: 'Messages' });
    await expect.poll(() => log.getByText(`Answer number ${COUNT} with`).isVisible(), { timeout: 20_000 }).toBe(true);
    const rendered = await log.getByRole('article').count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(80);
  });

  it('scrolls back to the first message', async () => {
    const { page } = app;
    const log = page.getByRole('log', { name: 'Messages' });
    // The virtual list measures rows as they appear: scroll until the top stays put. That is
    // 50 pages of 200, each asked for by a scroll to the top: on a busy machine it took 20 s.
    await expect
      .poll(
        async () => {
          await log.evaluate((el) => el.scrollTo({ top: 0 }));
          return log.getByText('Question number 1', { exact: true }).isVisible();
        },
        { timeout: 45_000 },
      )
      .toBe(true);
    expect(await log.getByRole('article').count()).toBeLessThan(80);
  });
});
