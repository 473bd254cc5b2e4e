// Routines and Activity end to end in Chromium against the browser host: a routine made
// through the form ("Every N minutes", 1) runs by itself within 75 s; Activity shows the
// finished run and opens its conversation; Run now starts another; a page notification
// after the user allowed them; a run that needs an approval shows as "needs you".
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { makeTempDir, removeDir } from '../support/tempDir';
import { filesystem, writeMcpConfig } from '../support/mcpFixtures';
import { makeDataDir, waitUntilReady } from './support/app';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

let workDir = '';
let dataDir = '';
const turns = turnQueue({ title: () => 'Routine run' });
const { app } = appPerFile({
  name: 'routines',
  server: { script: turns.script },
  prepare: () => {
    workDir = fs.realpathSync(makeTempDir('stepwise-routines-e2e-'));
    dataDir = makeDataDir();
    writeMcpConfig(dataDir, { fs: filesystem(workDir) });
    return { dataDir };
  },
  afterClose: () => {
    if (workDir) removeDir(workDir);
    if (dataDir) removeDir(dataDir);
  },
});

const page = (): Page => app.page;
const sidebar = () => page().getByRole('complementary', { name: 'Conversations' });
const activityEntry = () => sidebar().getByRole('button', { name: /^Activity/ });
const routinesPage = () => page().getByRole('region', { name: 'Routines' });
const activityPage = () => page().getByRole('region', { name: 'Activity' });
const row = (name: string) => routinesPage().getByRole('listitem', { name });
const event = (name: RegExp) => activityPage().getByRole('button', { name });

async function visible(locator: Locator, timeout = 15_000) {
  await locator.waitFor({ state: 'visible', timeout });
}

async function newRoutine(fill: (form: Locator) => Promise<void>) {
  await sidebar().getByRole('button', { name: 'Routines', exact: true }).click();
  await routinesPage().getByRole('button', { name: 'New routine' }).click();
  const form = page().getByRole('form', { name: 'New routine' });
  await fill(form);
  await form.getByRole('button', { name: 'Save routine' }).click();
  await form.waitFor({ state: 'detached' });
}

describe('Routines and Activity', () => {
  it('a routine made through the form runs by itself within 75 s, and Activity opens its conversation', async () => {
    turns.push({ text: 'The minute report is ready.\nThree items changed.' });
    await newRoutine(async (form) => {
      await form.getByRole('textbox', { name: 'Name' }).fill('Minute report');
      await form.getByRole('textbox', { name: 'Instructions' }).fill('Write the minute report.');
      await form.getByRole('combobox', { name: 'Schedule' }).selectOption({ label: 'Every N minutes' });
      await form.getByRole('spinbutton', { name: 'Minutes' }).fill('1');
      expect(await form.getByRole('checkbox', { name: 'Run on Autopilot' }).isChecked()).toBe(true);
      expect(await form.getByRole('radio', { name: 'Run once when Stepwise starts' }).isChecked()).toBe(true);
      expect(await form.getByRole('checkbox', { name: 'write_file' }).isChecked()).toBe(false);
    });
    await visible(row('Minute report').getByText('Every minute'));

    // The schedule's first run: within 75 s of saving.
    await sidebar().getByRole('button', { name: 'Activity 1 unread' }).waitFor({ timeout: 75_000 });
    await row('Minute report').getByRole('button', { name: 'Pause' }).click();
    await visible(row('Minute report').getByRole('button', { name: 'Resume' }));
    expect(await row('Minute report').textContent()).toContain('(completed)');

    await activityEntry().click();
    const finished = event(/^Minute report · .+: finished \(unread\)$/);
    await visible(finished);
    expect(await finished.textContent()).toContain('The minute report is ready.');
    expect(await finished.textContent()).not.toContain('Three items changed.');
    await finished.click();
    await visible(page().getByRole('main').getByText('Three items changed.'));
    expect(page().url()).toMatch(/#\/c\/[0-9a-f-]{36}$/);
    await visible(sidebar().getByRole('button', { name: 'Activity', exact: true }));
    // The schedule's first run may take 60 s (plus the machine's load): the test's budget covers the 75 s it is allowed.
  }, 150_000);

  it('Run now starts another run; with notifications allowed, the page shows one when it ends', async () => {
    // Record the notifications the page makes (they are real ones; the list is how the test sees them).
    await app.context.addInitScript(() => {
      const Real = window.Notification;
      const shown: string[] = [];
      Object.assign(window, { shownNotifications: shown });
      class Recorded extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push(`${title} | ${options?.body ?? ''}`);
        }
      }
      Object.defineProperty(window, 'Notification', { value: Recorded });
    });
    await page().reload();
    await waitUntilReady(page());
    await sidebar().getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('link', { name: 'Notifications' }).click();
    await app.context.grantPermissions(['notifications'], { origin: new URL(app.url).origin });
    await page().getByRole('button', { name: 'Allow browser notifications' }).click();
    await visible(page().getByText('This browser shows the notifications.'));

    turns.push({ text: 'Second report, on request.' });
    await sidebar().getByRole('button', { name: 'Routines', exact: true }).click();
    await row('Minute report').getByRole('button', { name: 'Run now' }).click();
    await sidebar().getByRole('button', { name: 'Activity 1 unread' }).waitFor({ timeout: 30_000 });
    await activityEntry().click();
    await visible(event(/^Minute report · .+: finished \(unread\)$/));
    expect(await activityPage().getByRole('listitem').count()).toBe(2);
    await expect
      .poll(() => page().evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications))
      .toEqual([expect.stringMatching(/^Minute report · .+ \| finished: Second report, on request\.$/)]);
    await activityPage().getByRole('button', { name: 'Mark all read' }).click();
    await visible(sidebar().getByRole('button', { name: 'Activity', exact: true }));
  });

  it('a run that needs an approval shows in Activity as "needs you"', async () => {
    turns.push({
      toolCalls: [
        {
          name: 'mcp__fs__write_file',
          arguments: JSON.stringify({ path: `${workDir}/notes.txt`, content: 'notes' }),
        },
      ],
    });
    await newRoutine(async (form) => {
      await form.getByRole('textbox', { name: 'Name' }).fill('Daily notes');
      await form.getByRole('textbox', { name: 'Instructions' }).fill('Write the notes file.');
      await form.getByRole('combobox', { name: 'Schedule' }).selectOption({ label: 'Every day' });
      await form.getByLabel('Time', { exact: true }).fill('23:30');
      // The subject is the tool approval, for a call made without a plan: no plan review.
      await form.getByRole('combobox', { name: 'Review plans' }).selectOption({ label: 'Off' });
    });
    await row('Daily notes').getByRole('button', { name: 'Run now' }).click();
    await sidebar().getByRole('button', { name: 'Activity 1 unread' }).waitFor({ timeout: 30_000 });
    await activityEntry().click();
    const needs = event(/^Daily notes · .+: needs you \(unread\)$/);
    await visible(needs);
    expect(await needs.textContent()).toContain('Waiting for you to approve mcp__fs__write_file.');
    await needs.click();
    await visible(page().getByRole('main').getByRole('button', { name: 'Allow once' }).first());
    expect(fs.existsSync(`${workDir}/notes.txt`)).toBe(false);
  });
});
