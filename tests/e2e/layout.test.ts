// Layout (issue 15, item 9; issue 26): the sidebar hides by button and by Ctrl+B and
// remembers that choice, folds away by itself below 900 px keeping Search, the list and
// Settings as icons, the composer's placeholder fits at 700 px, and an expanded 30-task header stays within 40% of the window height and scrolls inside.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
import { violations } from './support/axe';

const turns = turnQueue({ title: () => 'Thirty steps' });

const page = (): Page => app.page;
const sidebar = () => page().getByRole('complementary', { name: 'Conversations' });
const hideButton = () => page().getByRole('button', { name: 'Hide sidebar' });
const showButton = () => page().getByRole('button', { name: 'Show sidebar' });

const { app } = appPerFile({ name: 'layout', server: { script: turns.script } });

describe('layout', () => {
  it('hides and shows the sidebar by button and by Ctrl+B, and remembers the choice', async () => {
    await sidebar().waitFor();
    await hideButton().click();
    await sidebar().waitFor({ state: 'hidden' });
    expect(await violations(page())).toEqual([]);
    await showButton().click();
    await sidebar().waitFor();

    await page().keyboard.press('Control+b');
    await sidebar().waitFor({ state: 'hidden' });
    await page().reload();
    await showButton().waitFor();
    expect(await sidebar().isVisible()).toBe(false);
    await page().keyboard.press('Control+b');
    await sidebar().waitFor();
    await hideButton().waitFor();
  });

  it('folds the sidebar away below 900 px, fits the placeholder at 700 px, and restores the wide choice', async () => {
    await page().setViewportSize({ width: 700, height: 600 });
    await sidebar().waitFor({ state: 'hidden' });
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    const composer = page().getByRole('textbox', { name: 'Message' });
    await composer.waitFor();
    const fit = await composer.evaluate((el) => {
      const area = el as HTMLTextAreaElement;
      const style = getComputedStyle(area);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: context.measureText(area.placeholder).width, room };
    });
    expect(fit.text).toBeLessThanOrEqual(fit.room);
    expect(await composer.getAttribute('placeholder')).toBe('Message Stepwise… (Shift+Enter: new line)');
    // One line: the empty box shows no scrollbar.
    expect(await composer.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);

    // Shown on demand while narrow; back above the breakpoint the user's wide choice (shown) holds.
    await showButton().click();
    await sidebar().waitFor();
    await page().setViewportSize({ width: 1280, height: 800 });
    await sidebar().waitFor();
  });

  it('keeps an expanded 30-task header within 40% of the window height, scrolling inside', async () => {
    const todoList = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, title: `Step ${i + 1}`, status: 'pending' }));
    turns.push(
      { toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] },
      { text: 'Planned thirty steps.' },
    );
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Plan thirty steps');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await page().getByText('Planned thirty steps.').waitFor({ timeout: 15_000 });
    const tasks = page().getByRole('region', { name: 'Tasks', exact: true });
    const toggle = tasks.getByRole('button', { name: /^(Expand|Collapse) task list$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const rows = tasks.getByRole('list', { name: 'Task list' });
    await rows.waitFor();

    for (const height of [800, 500]) {
      await page().setViewportSize({ width: 1280, height });
      const box = await tasks.boundingBox();
      expect(box!.height).toBeLessThanOrEqual(height * 0.4 + 1);
      const scroll = await rows.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
      expect(scroll.scrollHeight).toBeGreaterThan(scroll.clientHeight);
    }
    await tasks.getByRole('button', { name: 'Task 30, pending: Step 30' }).scrollIntoViewIfNeeded();
    expect(await tasks.getByRole('button', { name: 'Task 30, pending: Step 30' }).isVisible()).toBe(true);
    // The transcript keeps room for its scrollbar, so the column does not shift when one appears.
    expect(
      await page()
        .getByRole('log', { name: 'Messages' })
        .evaluate((el) => getComputedStyle(el).scrollbarGutter),
    ).toBe('stable');
    expect(await violations(page())).toEqual([]);
  });

  it('keeps Search, the conversation list and Settings in the folded sidebar, and the title readable at 800 px', async () => {
    await page().setViewportSize({ width: 800, height: 600 });
    await sidebar().waitFor({ state: 'hidden' });
    // The open conversation's title keeps its room; the controls wrap under it if need be.
    const title = await page()
      .getByRole('button', { name: /^Rename “/ })
      .evaluate((el) => ({ shown: el.clientWidth, full: el.scrollWidth }));
    expect(title.shown).toBeGreaterThanOrEqual(Math.min(title.full, 200));
    const rail = page().getByRole('navigation', { name: 'Sidebar' });
    for (const name of ['Search conversations', 'Conversations', 'Settings']) {
      expect(await rail.getByRole('button', { name, exact: true }).getAttribute('title')).toMatch(
        new RegExp(`^${name}`),
      );
    }
    const mainWidth = async () => (await page().getByRole('main').boundingBox())!.width;
    const narrowMain = await mainWidth();
    await rail.getByRole('button', { name: 'Search conversations' }).click();
    await sidebar().waitFor();
    // Shown in a narrow window, the sidebar lies over the view, which keeps its width.
    expect(await mainWidth()).toBe(narrowMain);
    // The rail under it is out of reach: one "New conversation" button, the sidebar's.
    expect(await page().getByRole('button', { name: 'New conversation', exact: true }).count()).toBe(1);
    expect(
      await page()
        .getByRole('searchbox', { name: 'Search conversations' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page().keyboard.press('Control+b');
    await sidebar().waitFor({ state: 'hidden' });
    await rail.getByRole('button', { name: 'Conversations', exact: true }).click();
    await sidebar().waitFor();
    await expect
      .poll(() =>
        page()
          .getByRole('link', { name: /Thirty steps/ })
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    // Choosing a conversation folds it again.
    await page().keyboard.press('Enter');
    await sidebar().waitFor({ state: 'hidden' });
    await rail.getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('region', { name: 'Settings' }).waitFor();
    expect(await violations(page())).toEqual([]);
    await page().keyboard.press('Escape');
    await page().getByRole('region', { name: 'Settings' }).waitFor({ state: 'hidden' });
    await page().setViewportSize({ width: 1280, height: 800 });
  });
});
