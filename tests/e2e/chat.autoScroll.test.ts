// The message list follows a streaming reply while the user is at the bottom, and stops
// following as soon as they scroll up to read something else.
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

const turns = turnQueue({ title: () => 'Scrolling' });
const paragraphs = (n: number, word: string) =>
  Array.from({ length: n }, (_, i) => `${word} paragraph ${i + 1}.`).join('\n\n');

const { app } = appPerFile({ name: 'auto-scroll', server: { script: turns.script } });

const distanceFromBottom = () =>
  app.page.getByRole('log', { name: 'Messages' }).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

describe('auto-scroll', () => {
  it('follows the reply at the bottom and stops when the user scrolls up', async () => {
    const { page } = app;
    turns.push({ text: paragraphs(40, 'Opening') });
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Write a lot');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Opening paragraph 40.').waitFor({ timeout: 15_000 });
    await expect.poll(distanceFromBottom, { timeout: 10_000 }).toBeLessThan(48);

    // A slow reply: the list keeps the newest text in view while nobody scrolls.
    turns.push({ text: paragraphs(60, 'Streaming'), chunkSize: 12, chunkDelayMs: 15 });
    await page.getByRole('textbox', { name: 'Message' }).fill('More');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Streaming paragraph 5.').waitFor({ timeout: 15_000 });
    await expect.poll(distanceFromBottom, { timeout: 10_000 }).toBeLessThan(48);

    // The user scrolls up: the reply keeps growing below, the view stays where they are.
    const log = page.getByRole('log', { name: 'Messages' });
    await log.hover();
    await page.mouse.wheel(0, -1500);
    const readingAt = await log.evaluate((el) => el.scrollTop);
    await page.getByText('Streaming paragraph 30.').waitFor({ timeout: 15_000 });
    expect(await log.evaluate((el) => el.scrollTop)).toBeLessThanOrEqual(readingAt + 1);
    expect(await distanceFromBottom()).toBeGreaterThan(200);

    // Back at the bottom, it follows again until the reply ends.
    await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(distanceFromBottom, { timeout: 10_000 }).toBeLessThan(48);
    await expect.poll(() => page.getByText('Streaming paragraph 60.').isVisible(), { timeout: 10_000 }).toBe(true);
  });
});
