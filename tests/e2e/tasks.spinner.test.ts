// The in-progress spinner turns only while the task's owner runs, in Chromium with a 0 ms
// scripted model: after the reply it is still and says "waiting for you", after a doubtful
// Autopilot check "paused", while the model streams it turns, and after Stop "stopped".
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { plan, verdict } from '../support/autopilotServer';
import { autopilotAppPerFile } from './support/appPerFile';

const { app, s } = autopilotAppPerFile({ name: 'task-spinner', env: { OPENAI_API_KEY: 'sk-e2e' } });
const page = (): Page => app.page;
const tasks = () => page().getByRole('region', { name: 'Tasks', exact: true });
const row = () =>
  tasks()
    .getByRole('listitem')
    .filter({ has: page().getByRole('button', { name: /^Task 1, in progress/ }) });
const spinners = () => tasks().locator('.spinner');

async function send(text: string) {
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().getByRole('button', { name: 'Send', exact: true }).click();
}

/** Task 1 is still, says why, and nothing in the header turns. */
async function stillWith(hint: string) {
  await row().getByText(hint, { exact: true }).waitFor({ timeout: 10_000 });
  expect(await spinners().count()).toBe(0);
  expect(await row().locator('.task-still').count()).toBe(1);
  // The header's current task names why it is still, unless the header's own line already
  // says so ("Paused · …" or "Stopped · …" with Continue remaining tasks): never twice.
  expect(await tasks().locator('.task-current').innerText()).toMatch(new RegExp(`^Sort the apples( — ${hint})?$`));
}

describe('the in-progress spinner', () => {
  it('is still and says "waiting for you" once the assistant has replied', async () => {
    await page().getByRole('button', { name: 'New conversation', exact: true }).first().click();
    s.model.push(plan(['Sort the apples', 'Count the pears'], ['in_progress', 'pending']), {
      text: 'I started sorting.',
    });
    await send('Sort and count.');
    await page().getByText('I started sorting.').waitFor({ timeout: 15_000 });
    await stillWith('waiting for you');
  });

  it('is still and says "paused" when Autopilot paused', async () => {
    const autopilot = page().getByRole('main').getByRole('switch', { name: 'Autopilot' });
    await autopilot.click();
    await expect.poll(() => autopilot.getAttribute('aria-checked')).toBe('true');
    s.model.push({ text: 'Half of them are sorted.' });
    s.assessor.push(verdict(false, 'Only half are sorted.'));
    await send('Go on.');
    await page().getByRole('status').filter({ hasText: 'is not done' }).waitFor({ timeout: 15_000 });
    await stillWith('paused');
  });

  it('turns while the model works, and is still with "stopped" after Stop', async () => {
    s.model.push({ hang: true });
    await send('Keep sorting.');
    // Running (the list folds away while work runs): the header's current task turns.
    await tasks().locator('.task-current .spinner').waitFor({ timeout: 10_000 });
    expect(await tasks().locator('.task-current').innerText()).toBe('Sort the apples');
    await page().getByRole('button', { name: 'Stop', exact: true }).click();
    await stillWith('stopped');
  });
});
