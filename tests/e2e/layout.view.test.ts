// Every view at 800×600, 1280×800 and 1920×1080 (issue 26): the first run, the home
// screen, a conversation with its task list open and each Settings section. Checked on
// bounding boxes (support/layoutChecks.ts), plus axe-core on each. And in that
// conversation: a double-click on a task renames it without the click's jump.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { launchApp, type App } from './support/app';
import { reportFailure, turnQueue } from './support/chatScript';
import { violations } from './support/axe';
import { layoutProblems, SIZES } from './support/layoutChecks';
import { SETTINGS_SECTIONS } from '../../src/renderer/settings/settingsSections';

let app: App | undefined;
let server: ScriptedServer;
const turns = turnQueue({ title: () => 'Trip planning for a long weekend' });
const page = (): Page => app!.page;

async function checkAtEverySize(view: string, ready: () => Promise<unknown>) {
  for (const size of SIZES) {
    await page().setViewportSize(size);
    await ready();
    expect({ view, size, problems: await layoutProblems(page()) }).toEqual({ view, size, problems: [] });
  }
  expect(await violations(page())).toEqual([]);
}

beforeAll(async () => {
  server = await startScriptedServer({ script: turns.script, models: ['scripted', 'other-model'] });
});

afterEach(async (context) => {
  await reportFailure(app, 'viewLayout', context);
});

afterAll(async () => {
  await app?.close();
  await server?.close();
});

describe('views at 800, 1280 and 1920 px wide', () => {
  it('the first run', async () => {
    app = await launchApp({ env: { OPENAI_BASE_URL: undefined } });
    await checkAtEverySize('first run', () => page().getByRole('region', { name: 'Connect a model' }).waitFor());
    await app.close();
    app = undefined;
  });

  it('the home screen', async () => {
    app = await launchApp({
      env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-test', STEPWISE_MODEL: 'scripted' },
    });
    await checkAtEverySize('home', () => page().getByRole('button', { name: 'Start a new conversation' }).waitFor());
  });

  it('a conversation with its task list open', async () => {
    const todoList = Array.from({ length: 6 }, (_, i) => ({
      id: i + 1,
      title: `Step ${i + 1} of the plan`,
      status: i ? 'pending' : 'in_progress',
    }));
    turns.push(
      { toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] },
      { text: 'Planned six steps.\n\n'.repeat(3) },
    );
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Plan a long weekend');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await page().getByText('Planned six steps.').first().waitFor({ timeout: 15_000 });
    const tasks = page().getByRole('region', { name: 'Tasks', exact: true });
    const toggle = tasks.getByRole('button', { name: /^(Expand|Collapse) task list$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await checkAtEverySize('conversation', () => tasks.getByRole('list', { name: 'Task list' }).waitFor());
  });

  it('each Settings section', async () => {
    await page().keyboard.press('Control+,');
    for (const section of SETTINGS_SECTIONS) {
      await page().getByRole('link', { name: section.name, exact: true }).click();
      await checkAtEverySize(`Settings → ${section.name}`, () =>
        page().getByRole('group', { name: section.name, exact: true }).waitFor(),
      );
    }
    // The MCP form's text areas are fields like the others.
    await page().getByRole('link', { name: 'Tools (MCP)' }).click();
    await page().getByRole('button', { name: 'Add server' }).click();
    const form = page().getByRole('form', { name: 'Add MCP server' });
    await checkAtEverySize('Settings → Tools (MCP) → Add server', () => form.waitFor());
    const sizes = await form.evaluate((el) =>
      [...el.querySelectorAll('input:not([type="checkbox"]), select, textarea')].map((c) => {
        const style = getComputedStyle(c);
        return {
          width: c.getBoundingClientRect().width,
          background: style.backgroundColor,
          font: style.fontFamily,
          border: style.borderTopColor,
        };
      }),
    );
    expect(new Set(sizes.map((s) => JSON.stringify(s))).size).toBe(1);
  });

  // Last: it installs Playwright's fake clock, to step past the double-click interval without waiting.
  it('a double-click on a task only renames it; a single click jumps to its message', async () => {
    await page().keyboard.press('Escape');
    await page().getByRole('region', { name: 'Settings' }).waitFor({ state: 'hidden' });
    await page().setViewportSize({ width: 1280, height: 800 });
    const tasks = page().getByRole('region', { name: 'Tasks', exact: true });
    const task = tasks.getByRole('button', { name: 'Task 2, pending: Step 2 of the plan' });
    const marked = page().locator('.message-row.highlighted');
    await page().clock.install();
    await task.dblclick();
    const rename = tasks.getByRole('textbox', { name: 'Rename task 2' });
    await rename.waitFor();
    await page().clock.runFor(2_000);
    expect(await marked.count()).toBe(0);
    await rename.press('Escape');
    await task.click();
    await page().clock.runFor(2_000);
    await expect.poll(() => marked.count()).toBe(1);
  });
});
