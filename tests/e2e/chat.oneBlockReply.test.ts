// Replies that are one huge Markdown block: log lines in one paragraph, one code block,
// one table. Each is cut into chunks (markdownBlocks.ts) and opens at its end with the
// end rendered; a big code block is plain monospace until "Highlight" is pressed.
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';

const LINES = 3000;

const replies = {
  'Log lines': Array.from(
    { length: LINES },
    (_, i) => `12:00 worker-${i % 8} handled **job ${i + 1}** in ${i % 97} ms`,
  ).join('\n'),
  'Code dump':
    '```ts\n' +
    Array.from({ length: LINES }, (_, i) => `const value${i + 1} = compute(${i + 1}, "item");`).join('\n') +
    '\n```\n',
  'Big table':
    '| id | name | state |\n|---|---|---|\n' +
    Array.from({ length: LINES }, (_, i) => `| ${i + 1} | widget-${i + 1} | **ok ${i + 1}** |`).join('\n') +
    '\n',
  // A local model's reply without a single line break.
  'One long line': Array.from({ length: 2 * LINES }, (_, i) => `token **${i + 1}** said`).join(' '),
};

const { app } = appPerFile({
  name: 'one-block-reply',
  seed: (core) => {
    for (const [title, content] of Object.entries(replies)) {
      const conversation = core.conversations.create(title);
      core.messages.insert({ conversationId: conversation.id, role: 'user', content: 'Dump it' });
      core.messages.insert({ conversationId: conversation.id, role: 'assistant', content });
    }
  },
});

describe('a reply that is one huge block', () => {
  it('of log lines opens at its end rendered as Markdown, every line there', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Log lines' }).click();
    const reply = page.getByRole('log', { name: 'Messages' }).getByRole('article').last();
    await expect
      .poll(() => reply.locator('strong', { hasText: `job ${LINES}` }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    const text = await reply.locator('.markdown').textContent();
    // Far chunks may still show as written (plain) or already as Markdown.
    for (const n of [1, LINES / 2]) expect(text).toMatch(new RegExp(`handled (\\*\\*)?job ${n}(\\*\\*)? in`));
  });

  it('of code shows plain monospace until Highlight is pressed', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Code dump' }).click();
    const reply = page.getByRole('log', { name: 'Messages' }).getByRole('article').last();
    await expect
      .poll(() => reply.getByText(`const value${LINES} = compute(${LINES}, "item");`).isVisible(), { timeout: 20_000 })
      .toBe(true);
    expect(await reply.locator('.hljs-keyword').count()).toBe(0);
    expect(await reply.locator('pre').first().textContent()).toContain('const value1 = compute(1, "item");');
    await reply.getByRole('button', { name: 'Highlight this code block' }).click();
    await expect.poll(() => reply.locator('.hljs-keyword').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => reply.getByText(`value${LINES}`).isVisible(), { timeout: 20_000 }).toBe(true);
  });

  it('of a table opens at its last row, in table cells', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Big table' }).click();
    const reply = page.getByRole('log', { name: 'Messages' }).getByRole('article').last();
    await expect
      .poll(() => reply.getByRole('cell', { name: `ok ${LINES}` }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    // The chunks after the first hide their header; the first shows it once scrolled to.
    expect(await reply.getByRole('columnheader', { name: 'name' }).filter({ visible: true }).count()).toBe(0);
    const log = page.getByRole('log', { name: 'Messages' });
    await expect
      .poll(
        async () => {
          await log.evaluate((el) => el.scrollTo({ top: 0 }));
          return reply.getByRole('columnheader', { name: 'name' }).filter({ visible: true }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
  });

  it('of one line is cut between words: its chunks read as one paragraph, marks intact', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'One long line' }).click();
    const reply = page.getByRole('log', { name: 'Messages' }).getByRole('article').last();
    await expect
      .poll(() => reply.locator('strong', { hasText: `${2 * LINES}` }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    // Chunks far from the screen show as written until they come near.
    expect(await reply.locator('.markdown > *').count()).toBeGreaterThan(10);
    // No mark was cut in two: the rendered last chunk shows no asterisks, and no gap parts it from the one before.
    const last = reply.locator('.md-paragraph-chunk').last();
    expect(await last.textContent()).not.toContain('*');
    expect(await last.locator('p').evaluate((p) => getComputedStyle(p).marginTop)).toBe('0px');
  });
});
