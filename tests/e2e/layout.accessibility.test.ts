// Automated accessibility checks (axe-core) on the main screens, in light and dark:
// the empty app, a conversation with a task list, tool cards and workers, a menu, a
// dialog and Settings. Serious and critical violations fail the test.
import { describe, expect, it } from 'vitest';
import { chunk, DONE } from '../support/sseFixtures';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
import { violations } from './support/axe';

const turns = turnQueue({ title: () => 'Accessible plan' });

const { app } = appPerFile({ name: 'a11y', server: { script: turns.script } });

describe('accessibility (axe-core)', () => {
  it('the empty app has no serious violations', async () => {
    await app.page.getByRole('button', { name: 'New conversation', exact: true }).waitFor();
    expect(await violations(app.page)).toEqual([]);
  });

  it('a conversation with a task list, tool cards, code and a table has none', async () => {
    const { page } = app;
    turns.push(
      {
        text: 'Planning.',
        toolCalls: [
          { name: 'think', arguments: JSON.stringify({ thought: 'Two steps.' }) },
          {
            name: 'manage_todo_list',
            arguments: JSON.stringify({
              todoList: [
                { id: 1, title: 'Collect data', status: 'completed' },
                { id: 2, title: 'Write report', status: 'in_progress', activeForm: 'Writing report' },
                { id: 3, title: 'Review', status: 'pending' },
              ],
            }),
          },
        ],
      },
      { text: 'Done:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n\n[docs](https://example.com)' },
    );
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    // The new conversation before its first send (a draft: title, Autopilot, composer).
    await page.getByRole('switch', { name: 'Autopilot' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'Message' }).fill('Make a report');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('region', { name: 'Tasks' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });
    const toggle = page.getByRole('button', { name: 'Expand task list' });
    if (await toggle.isVisible()) await toggle.click();
    expect(await violations(page)).toEqual([]);
  });

  it('an open menu and the delete dialog have none', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Actions for Accessible plan' }).click();
    await page.getByRole('menu').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    await page.getByRole('dialog', { name: 'Delete conversation?' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('Settings has none, in light and in dark', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('region', { name: 'Settings' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Appearance' }).click();
    await page.locator('label').filter({ hasText: 'Dark' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await violations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Accessible plan' }).click();
    await page.getByRole('region', { name: 'Tasks' }).waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it('an open Thinking block has none (dark)', async () => {
    const { page } = app;
    turns.push({
      raw: [
        chunk({ role: 'assistant', reasoning_content: 'Weighing it up.\n'.repeat(40) }),
        chunk({ content: 'Decided.' }, 'stop'),
        DONE,
      ],
    });
    await page.getByRole('textbox', { name: 'Message' }).fill('Decide');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: /^Thinking/ }).click();
    await page.getByRole('region', { name: 'Thinking' }).waitFor();
    expect(await violations(page)).toEqual([]);
  });
});
