// Search finds the message: a result shows the matching words in context, and choosing it
// opens the conversation at that message (older than the first window it loads) and
// highlights it. Ctrl+K and "/" focus the search box from anywhere. The keyboard reaches the
// results (↓ then Enter opens one; Tab goes to them), and a conversation started while a
// search is shown appears in the list.
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

let target = 0;

const turns = turnQueue({ title: () => 'Packing list for the ferry' });

const { app } = appPerFile({
  name: 'search',
  server: { script: turns.script },
  seed: (core) => {
    const long = core.conversations.create('Trip planning');
    core.db.transaction(() => {
      for (let i = 1; i <= 400; i++) {
        const content =
          i === 30 ? 'Pack the binoculars for the zebra safari on day three.' : `Note ${i} about the itinerary.`;
        const message = core.messages.insert({ conversationId: long.id, role: i % 2 ? 'user' : 'assistant', content });
        if (i === 30) target = message.id;
      }
    })();
    core.conversations.create('Zebra crossing design');
    core.conversations.create('Unrelated');
  },
});

describe('search', () => {
  it('focuses the search box with Ctrl+K and with /', async () => {
    const { page } = app;
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await page.keyboard.press('Control+k');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('heading', { name: 'Stepwise' }).click();
    await page.keyboard.press('/');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('shows the matching words and opens the conversation at the message, highlighted', async () => {
    const { page } = app;
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('zebr');
    const results = page.getByRole('list', { name: 'Saved conversations' }).getByRole('link');
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(2);
    const trip = results.filter({ hasText: 'Trip planning' });
    // The snippet marks the matched word.
    expect(await trip.locator('mark').allTextContents()).toEqual(['zebra']);
    // Clearly visible: its background stands out from the row's, its text from its background.
    const contrast = await trip.locator('mark').evaluate((mark) => {
      const rgb = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
      const luminance = (color: string) => {
        const [r, g, b] = rgb(color).map((c) =>
          c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4,
        );
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (a: string, b: string) => {
        const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
      };
      let row: Element | null = mark.parentElement;
      while (row && ['transparent', 'rgba(0, 0, 0, 0)'].includes(getComputedStyle(row).backgroundColor))
        row = row.parentElement;
      const style = getComputedStyle(mark);
      return {
        fromRow: ratio(style.backgroundColor, getComputedStyle(row ?? document.body).backgroundColor),
        text: ratio(style.color, style.backgroundColor),
      };
    });
    expect(contrast.fromRow).toBeGreaterThanOrEqual(1.25);
    expect(contrast.text).toBeGreaterThanOrEqual(4.5);
    expect(await trip.innerText()).toContain('binoculars for the zebra safari');
    // A title match lists the conversation with no snippet.
    expect(await results.filter({ hasText: 'Zebra crossing design' }).locator('mark').count()).toBe(0);

    await trip.click();
    const hit = page.locator(`[data-message-id="${target}"]`);
    await expect.poll(() => hit.isVisible(), { timeout: 15_000 }).toBe(true);
    // Its row stays marked as the one the search went to.
    expect(await page.locator('.message-row.highlighted').locator(`[data-message-id="${target}"]`).count()).toBe(1);
    expect(await hit.innerText()).toContain('zebra safari');
  });

  it('↓ then Enter opens the first result; Tab from the search box goes to the results', async () => {
    const { page } = app;
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('crossing');
    const results = page.getByRole('list', { name: 'Saved conversations' }).getByRole('link');
    await expect
      .poll(() => results.allInnerTexts(), { timeout: 10_000 })
      .toEqual([expect.stringContaining('Zebra crossing design')]);
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');

    await search.press('Tab');
    expect(await focused()).toContain('Zebra crossing design');
    await search.focus();
    await search.press('ArrowDown');
    expect(await focused()).toContain('Zebra crossing design');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByRole('main').getByRole('heading', { level: 1 }).innerText(), { timeout: 10_000 })
      .toContain('Zebra crossing design');
    await search.fill('');
  });

  it('a conversation started while a search is shown appears in the list', async () => {
    const { page } = app;
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('zebr');
    const results = page.getByRole('list', { name: 'Saved conversations' }).getByRole('link');
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(2);
    turns.push({ text: 'Sunscreen, a hat and the tickets.' });
    await page
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'New conversation', exact: true })
      .click();
    await page.getByRole('textbox', { name: 'Message' }).fill('What do I pack for the ferry?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(3);
    await expect.poll(() => results.first().innerText(), { timeout: 10_000 }).toContain('Packing list for the ferry');
    expect(await search.inputValue()).toBe('zebr');
  });
});
