// The foundation end to end, in Debian Chromium against the browser host: manage
// conversations (start by sending, rename three ways, pin, delete with confirmation, search), type
// messages, switch the theme, restart the host on the same data dir and find it all again.
// The tests run in order and share one app, like a person working through a session.
// Start-up cases (serve options, damaged or newer databases, 10,000 conversations) are in
// app.startup.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { OFFLINE_BASE_URL } from './support/app';
import { appPerFile } from './support/appPerFile';

const SHOTS = path.join('/tmp', 'stepwise-e2e');
fs.mkdirSync(SHOTS, { recursive: true });

const page = (): Page => app.page;

const sidebar = () => page().getByRole('complementary', { name: 'Conversations' });
const list = () => page().getByRole('list', { name: 'Saved conversations' });
const item = (title: string) => list().getByRole('link', { name: new RegExp(`^(Pinned)?\\s*${title}`) });
const titlesInSidebar = async () =>
  (await list().locator('.conversation-title').allTextContents()).map((t) => t.replace('📌', '').trim());
const heading = () => page().getByRole('main').getByRole('heading', { level: 1 });
const composer = () => page().getByRole('textbox', { name: 'Message' });

/** Chooses a theme the way a person does: by clicking the radio's label. */
async function chooseTheme(name: 'Match system' | 'Light' | 'Dark') {
  const group = page().getByRole('radiogroup', { name: 'Theme' });
  const radio = group.getByRole('radio', { name, exact: true });
  await group
    .locator('label')
    .filter({ has: page().getByRole('radio', { name, exact: true }) })
    .click();
  await expect.poll(() => radio.isChecked()).toBe(true);
}

async function expectEventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(read, { timeout: 10_000 }).toEqual(expected);
}

async function visible(locator: Locator) {
  await locator.waitFor({ state: 'visible' });
}

/**
 * Opens an item's "Actions for <title>" menu and picks an action with the keyboard (the
 * menu focuses its first item; arrows move, Enter chooses). Clicking items is tested apart.
 */
async function actionsFor(title: string, action: string, which = 0) {
  await sidebar()
    .getByRole('button', { name: `Actions for ${title}`, exact: true })
    .nth(which)
    .click();
  const menu = page().getByRole('menu', { name: `Actions for ${title}`, exact: true });
  await visible(menu);
  const target = menu.getByRole('menuitem', { name: action, exact: true });
  for (let step = 0; step < 10; step++) {
    if (await target.evaluate((el) => el === document.activeElement)) break;
    await page().keyboard.press('ArrowDown');
  }
  await page().keyboard.press('Enter');
}

// The chat engine may start a request after a message is sent: nothing listens on
// OFFLINE_BASE_URL, so it fails locally and the user's messages are what this checks.
const { app } = appPerFile({ name: 'foundation', env: { OPENAI_BASE_URL: OFFLINE_BASE_URL } });

describe('foundation in the browser', () => {
  it('prints exactly one line with the address', () => {
    expect(app.host.stdout()).toBe(`Stepwise is running at ${app.url}\n`);
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
  });

  it('opens on empty states that say what to do next', async () => {
    await visible(sidebar().getByText('No conversations yet. Start one with “New conversation”.'));
    await visible(page().getByRole('button', { name: 'Start a new conversation' }));
    expect(await page().title()).toMatch(/Stepwise/);
  });

  it('starts three conversations (welcome button, Ctrl+N, sidebar button), each stored by its first message', async () => {
    // A new conversation is only a draft: the sidebar gets it once its first message is sent
    // (the offline model fails, so its title falls back to the message's first words).
    const start = async (open: () => Promise<void>, text: string, count: number) => {
      await open();
      await expectEventually(() => heading().textContent(), 'New conversation');
      await expect.poll(() => composer().evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await titlesInSidebar()).toHaveLength(count - 1);
      await page().keyboard.type(text);
      await page().keyboard.press('Enter');
      await expectEventually(async () => (await titlesInSidebar()).includes(text), true);
      expect(await titlesInSidebar()).toHaveLength(count);
    };
    await start(() => page().getByRole('button', { name: 'Start a new conversation' }).click(), 'Weekly shopping', 1);
    await start(() => page().keyboard.press('Control+N'), 'A few days in Lisbon', 2);
    await start(
      () => sidebar().getByRole('button', { name: 'New conversation', exact: true }).click(),
      'Numbers for the quarter',
      3,
    );
    await expectEventually(() => heading().textContent(), 'Numbers for the quarter');
  });

  it('renames with F2 on the open conversation', async () => {
    await page().keyboard.press('F2');
    const title = page().getByRole('textbox', { name: 'Conversation title' });
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true);
    await title.fill('Quarterly report');
    await title.press('Enter');
    await expectEventually(() => heading().textContent(), 'Quarterly report');
    await expectEventually(async () => (await titlesInSidebar())[0], 'Quarterly report');
  });

  it('renames inline from the item menu, and Esc cancels a rename', async () => {
    await item('A few days in Lisbon').click();
    await expectEventually(() => heading().textContent(), 'A few days in Lisbon');
    await actionsFor('A few days in Lisbon', 'Rename');
    const field = sidebar().getByRole('textbox', { name: 'Rename conversation' });
    await field.fill('Never saved');
    await field.press('Escape');
    await expectEventually(async () => (await titlesInSidebar()).includes('Never saved'), false);

    await actionsFor('A few days in Lisbon', 'Rename');
    await sidebar().getByRole('textbox', { name: 'Rename conversation' }).fill('Trip to Lisbon');
    await sidebar().getByRole('textbox', { name: 'Rename conversation' }).press('Enter');
    await visible(item('Trip to Lisbon'));
  });

  it('renames by clicking the title in the header', async () => {
    await item('Weekly shopping').click();
    await page().getByRole('button', { name: 'Rename “Weekly shopping”' }).click();
    await page().getByRole('textbox', { name: 'Conversation title' }).fill('Groceries');
    await page().getByRole('textbox', { name: 'Conversation title' }).press('Enter');
    await expectEventually(() => heading().textContent(), 'Groceries');
    await expectEventually(
      async () => [...(await titlesInSidebar())].sort(),
      ['Groceries', 'Quarterly report', 'Trip to Lisbon'],
    );
  });

  it('pins a conversation to the top', async () => {
    await actionsFor('Trip to Lisbon', 'Pin');
    await expectEventually(async () => (await titlesInSidebar())[0], 'Trip to Lisbon');
    await visible(item('Trip to Lisbon').getByRole('img', { name: 'Pinned' }));
    await sidebar().getByRole('button', { name: 'Actions for Trip to Lisbon' }).click();
    await visible(page().getByRole('menuitem', { name: 'Unpin' }));
    await page().keyboard.press('Escape');
  });

  it('menu items can be clicked and read on a row with rows below it', async () => {
    // The open menu overlaps the rows below; it must be on top of them, and legible.
    await sidebar().getByRole('button', { name: 'Actions for Trip to Lisbon', exact: true }).click();
    const menu = page().getByRole('menu', { name: 'Actions for Trip to Lisbon', exact: true });
    const colors = await menu
      .getByRole('menuitem', { name: 'Delete…', exact: true })
      .evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
    expect.soft(colors[0], 'text colour of "Delete…" equals its background').not.toBe(colors[1]);
    await menu.getByRole('menuitem', { name: 'Rename', exact: true }).click({ timeout: 5_000 });
    const field = sidebar().getByRole('textbox', { name: 'Rename conversation' });
    expect(await field.inputValue()).toBe('Trip to Lisbon');
    await field.press('Escape');
    await visible(item('Trip to Lisbon'));
  });

  it('deletes a conversation only after confirmation', async () => {
    await actionsFor('Groceries', 'Delete…');
    const dialog = page().getByRole('dialog', { name: 'Delete conversation?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(item('Groceries'));

    await actionsFor('Groceries', 'Delete…');
    await page()
      .getByRole('dialog', { name: 'Delete conversation?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expectEventually(titlesInSidebar, ['Trip to Lisbon', 'Quarterly report']);
    // Groceries was open: the view goes back to the welcome screen.
    await visible(page().getByRole('button', { name: 'Start a new conversation' }));
  });

  it('searches titles; Ctrl+K focuses the search box and Esc clears it', async () => {
    const search = sidebar().getByRole('searchbox', { name: 'Search conversations' });
    await page().getByRole('main').click();
    await page().keyboard.press('Control+K');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page().keyboard.type('lisb');
    await expectEventually(titlesInSidebar, ['Trip to Lisbon']);
    await search.fill('no such thing');
    await visible(sidebar().getByText('No conversations match “no such thing”.'));
    await search.press('Escape');
    await expectEventually(titlesInSidebar, ['Trip to Lisbon', 'Quarterly report']);
  });

  it('sends messages with the Send button and with Enter; Shift+Enter adds a line', async () => {
    await item('Trip to Lisbon').click();
    await expectEventually(() => heading().textContent(), 'Trip to Lisbon');

    await composer().fill('Plan three days in Lisbon');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await visible(
      page().getByRole('article', { name: 'You message' }).filter({ hasText: 'Plan three days in Lisbon' }),
    );
    await expectEventually(() => composer().inputValue(), '');

    // Sending may start a reply (it fails fast: nothing listens). While one runs the
    // button reads "Stop" and Enter does not send, so wait until "Send" is back.
    await visible(page().getByRole('button', { name: 'Send', exact: true }));
    await composer().click();
    await page().keyboard.type('Budget: 600 euros');
    await page().keyboard.press('Shift+Enter');
    await page().keyboard.type('No museums on Monday');
    expect(await composer().inputValue()).toBe('Budget: 600 euros\nNo museums on Monday');
    await page().keyboard.press('Enter');
    const second = page().getByRole('article', { name: 'You message' }).filter({ hasText: 'Budget: 600 euros' });
    await visible(second);
    expect(await second.locator('.user-text').innerText()).toBe('Budget: 600 euros\nNo museums on Monday');
    await expectEventually(() => composer().inputValue(), '');
  });

  it('switches the theme in Settings and follows the OS theme by default', async () => {
    const theme = () => page().evaluate(() => document.documentElement.dataset.theme);
    await expectEventually(theme, 'light');
    await sidebar().getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('link', { name: 'Appearance' }).click();
    await chooseTheme('Dark');
    await expectEventually(theme, 'dark');
    await chooseTheme('Light');
    await expectEventually(theme, 'light');
    await chooseTheme('Match system');
    await page().emulateMedia({ colorScheme: 'dark' });
    await expectEventually(theme, 'dark');
    await page().emulateMedia({ colorScheme: 'light' });
    await expectEventually(theme, 'light');
    await chooseTheme('Dark');
    await expectEventually(theme, 'dark');
  });

  it('keeps everything across a restart of the host on the same data dir', async () => {
    await app.restart();
    expect(app.host.stdout()).toBe(`Stepwise is running at ${app.url}\n`);
    await expectEventually(titlesInSidebar, ['Trip to Lisbon', 'Quarterly report']);
    await visible(item('Trip to Lisbon').getByRole('img', { name: 'Pinned' }));
    expect(await page().evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

    await item('Trip to Lisbon').click();
    const mine = page().getByRole('article', { name: 'You message' });
    await expectEventually(
      async () => (await mine.locator('.user-text').allInnerTexts()).slice(0, 3),
      ['A few days in Lisbon', 'Plan three days in Lisbon', 'Budget: 600 euros\nNo museums on Monday'],
    );

    await page().getByRole('main').click();
    await page().keyboard.press('F2');
    await page().getByRole('textbox', { name: 'Conversation title' }).press('Escape');
    await expectEventually(() => heading().textContent(), 'Trip to Lisbon');
  });

  it('looks like a product (screenshot for review)', async () => {
    await page().screenshot({ path: path.join(SHOTS, 'foundation-dark.png') });
    await sidebar().getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('link', { name: 'Appearance' }).click();
    await chooseTheme('Light');
    await item('Trip to Lisbon').click();
    await visible(page().getByRole('article', { name: 'You message' }).first());
    await page().screenshot({ path: path.join(SHOTS, 'foundation-light.png') });
    expect(fs.statSync(path.join(SHOTS, 'foundation-light.png')).size).toBeGreaterThan(10_000);
  });
});
