// Settings as a view (issue 26): Ctrl/⌘+, puts the focus in it, a section is reached by
// its link and has its own address, and Esc returns to the same conversation at the same
// scroll position with the focus where it was.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { violations } from './support/axe';

const page = (): Page => app.page;
const settings = () => page().getByRole('region', { name: 'Settings' });
const log = () => page().getByRole('log', { name: 'Messages' });
const focusedName = () => page().evaluate(() => document.activeElement?.textContent?.trim() ?? '');
const focusInSettings = () =>
  settings().evaluate((el) => el.contains(document.activeElement) && document.activeElement !== document.body);

const { app } = appPerFile({
  name: 'settingsView',
  env: { OPENAI_API_KEY: 'sk-test', STEPWISE_MODEL: 'scripted' },
  seed: (core) => {
    const conversation = core.conversations.create('Long notes');
    core.db.transaction(() => {
      for (let i = 1; i <= 80; i++) {
        core.messages.insert({
          conversationId: conversation.id,
          role: i % 2 ? 'user' : 'assistant',
          content: i % 2 ? `Question ${i}` : `Answer ${i}: ${'several words of text '.repeat(12)}`,
        });
      }
    })();
  },
});

describe('Settings as a view', () => {
  it('opens with Ctrl+, (focus inside), reaches "Tools (MCP)" by its link, and Esc returns to the same place', async () => {
    await page().getByRole('link', { name: 'Long notes' }).click();
    await log().getByText('Answer 80:').waitFor();
    // Somewhere in the middle, not at an end the list would return to by itself.
    await expect.poll(() => log().evaluate((el) => ((el.scrollTop = 1500), el.scrollTop))).toBe(1500);
    const composer = page().getByRole('textbox', { name: 'Message' });
    await composer.focus();

    await page().keyboard.press('Control+,');
    await settings().waitFor();
    await expect.poll(focusInSettings).toBe(true);
    expect(await focusedName()).toBe('Providers');
    while ((await focusedName()) !== 'Tools (MCP)') await page().keyboard.press('Tab');
    await page().keyboard.press('Enter');
    await page().getByRole('group', { name: 'Tools (MCP)' }).waitFor();
    expect(new URL(page().url()).hash).toBe('#/settings/mcp');
    expect(await page().getByRole('link', { name: 'Tools (MCP)' }).getAttribute('aria-current')).toBe('page');
    expect(await violations(page())).toEqual([]);

    await page().keyboard.press('Escape');
    await settings().waitFor({ state: 'hidden' });
    expect(await page().getByRole('heading', { name: 'Long notes' }).isVisible()).toBe(true);
    expect(await log().evaluate((el) => el.scrollTop)).toBe(1500);
    expect(await composer.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('opens a section by its address, keeps "Close settings" in view while scrolling, and closes to the conversation', async () => {
    await page().evaluate(() => (window.location.hash = '#/settings/agent'));
    await page().getByRole('group', { name: 'Agent' }).waitFor();
    // Esc in the sidebar's search clears the search; Settings stays.
    const search = page().getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('notes');
    await search.press('Escape');
    expect(await search.inputValue()).toBe('');
    expect(await settings().isVisible()).toBe(true);
    await page().getByRole('link', { name: 'Providers' }).click();
    const close = page().getByRole('button', { name: 'Close settings' });
    await page().setViewportSize({ width: 1280, height: 500 });
    await settings()
      .locator('.settings-scroll')
      .evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const box = await close.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= page().viewportSize()!.height).toBe(true);
    await close.click();
    await page().setViewportSize({ width: 1280, height: 800 });
    await settings().waitFor({ state: 'hidden' });
    expect(await page().getByRole('heading', { name: 'Long notes' }).isVisible()).toBe(true);
  });
});
