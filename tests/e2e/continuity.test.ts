// Task lists that outlive Stop, restarts and edits, end to end in Chromium: the header's
// "Stopped/Interrupted · k of N tasks left" with "Continue remaining tasks". The scripted
// server plays the model (and Autopilot's assessor).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { autopilotAppPerFile } from './support/appPerFile';
import { plan, verdict } from '../support/autopilotServer';

const SHOTS = path.join('/tmp', 'stepwise-e2e');
fs.mkdirSync(SHOTS, { recursive: true });

const STEPS = ['Collect data', 'Write summary', 'Send report'];
const P = 'pending';
const I = 'in_progress';
const C = 'completed';

const { app, s } = autopilotAppPerFile({ name: 'continuity', env: { OPENAI_API_KEY: 'sk-e2e-continuity' } });
const page = (): Page => app.page;
const main = () => page().getByRole('main');
const tasks = () => page().getByRole('region', { name: 'Tasks', exact: true });
const continueButton = () => tasks().getByRole('button', { name: 'Continue remaining tasks', exact: true });
const continuity = (text: string) => tasks().getByRole('status').filter({ hasText: text });
const autoMessages = () => main().getByRole('article', { name: 'Autopilot message' });
const lastAssistant = () => page().getByRole('article', { name: 'Assistant message', exact: true }).last();
const firstConversation = () => page().getByRole('list', { name: 'Saved conversations' }).getByRole('link').first();

/** A reply that streams slowly enough to be stopped (or killed) halfway. */
const slow = (text: string) => ({ text: text.repeat(200), chunkSize: 4, chunkDelayMs: 15 });

async function newConversation(message: string) {
  await page().getByRole('button', { name: 'New conversation', exact: true }).click();
  await page().getByRole('textbox', { name: 'Message' }).fill(message);
  await page().keyboard.press('Enter');
}

describe('continuity', () => {
  it('Stop mid-list, then Continue remaining tasks', async () => {
    s.model.push(plan(STEPS, [I, P, P]), slow('Collecting '));
    await newConversation('Do the report.');
    await lastAssistant().filter({ hasText: 'Collecting Collecting' }).waitFor();
    await page().getByRole('button', { name: 'Stop', exact: true }).click();

    await continuity('Stopped · 3 of 3 tasks left').waitFor();
    await page().screenshot({ path: path.join(SHOTS, 'continuity-stopped.png') });
    s.model.push(plan(STEPS, [C, I, P]), { text: 'The data is collected.' });
    await continueButton().click();
    await autoMessages().filter({ hasText: 'Continuing: Collect data' }).waitFor();
    await lastAssistant().filter({ hasText: 'The data is collected.' }).waitFor();
    // Autopilot is off: the turn ends with tasks left, and the header offers to go on.
    await continuity('Paused · 2 of 3 tasks left').waitFor();
    expect(s.modelRequests().at(-2)!.body.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'NEXT_TODO: Collect data',
    });
  });

  it('kill the host mid-list, restart: Interrupted, then Continue', async () => {
    s.model.push(plan(STEPS, [I, P, P]), slow('Gathering '));
    await newConversation('Do the other report.');
    await lastAssistant().filter({ hasText: 'Gathering Gathering' }).waitFor();
    await app.restart({ crash: true });

    const requests = s.modelRequests().length;
    await firstConversation().click();
    await continuity('Interrupted · 3 of 3 tasks left').waitFor();
    await page().screenshot({ path: path.join(SHOTS, 'continuity-interrupted.png') });
    // Exactly one recovery action: Continue remaining tasks, no Retry beside it; the row
    // does not say "stopped" next to "Interrupted".
    await page().getByRole('alert').filter({ hasText: 'The reply was cut short when Stepwise closed.' }).waitFor();
    expect(await page().getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await continueButton().count()).toBe(1);
    expect(
      await tasks()
        .getByText(/— stopped/)
        .count(),
    ).toBe(0);
    // Nothing resumed by itself.
    expect(s.modelRequests()).toHaveLength(requests);

    s.model.push(plan(STEPS, [C, C, I]), { text: 'Two steps done.' });
    await continueButton().click();
    await autoMessages().filter({ hasText: 'Continuing: Collect data' }).waitFor();
    await lastAssistant().filter({ hasText: 'Two steps done.' }).waitFor();
    await continuity('Paused · 1 of 3 tasks left').waitFor();
  });

  it('edit message 1 of 3: the header shows the new branch list; switching back brings the old one', async () => {
    const summary = (text: string) => tasks().getByText(text, { exact: true });
    const articles = () => page().getByRole('log', { name: 'Messages' }).getByRole('article');
    async function send(text: string, answer: string) {
      await page().getByRole('textbox', { name: 'Message' }).fill(text);
      await page().keyboard.press('Enter');
      await lastAssistant().filter({ hasText: answer }).waitFor();
      await page().getByRole('button', { name: 'Send', exact: true }).waitFor();
    }
    s.model.push(plan(STEPS, [I, P, P]), { text: 'Planned the report.' });
    await newConversation('Plan the report.');
    await lastAssistant().filter({ hasText: 'Planned the report.' }).waitFor();
    s.model.push(plan(STEPS, [C, I, P]), { text: 'Data collected.' });
    await send('Collect the data.', 'Data collected.');
    s.model.push({ text: 'Writing next.' });
    await send('What is next?', 'Writing next.');
    await summary('Tasks 1/3').waitFor();

    s.model.push(plan(['Outline poem', 'Write poem'], [I, P]), { text: 'Outlining.' });
    const first = articles().first();
    await first.hover();
    await first.getByRole('button', { name: 'Edit message' }).click();
    await first.getByRole('textbox', { name: 'Edit message' }).fill('Write a poem instead.');
    await first.getByRole('button', { name: 'Save and send' }).click();
    await lastAssistant().filter({ hasText: 'Outlining.' }).waitFor();
    await summary('Tasks 0/2').waitFor();
    // The model's request on the new branch never saw the old list.
    expect(s.modelRequests().at(-2)!.body.messages[0].content).not.toContain('Collect data');

    await articles()
      .first()
      .getByRole('group', { name: 'Version 2 of 2' })
      .getByRole('button', { name: 'Previous version' })
      .click();
    await summary('Tasks 1/3').waitFor();
    await articles()
      .first()
      .getByRole('group', { name: 'Version 1 of 2' })
      .getByRole('button', { name: 'Next version' })
      .click();
    await summary('Tasks 0/2').waitFor();
  });

  it('Autopilot with a model that makes no progress pauses with "No progress"', async () => {
    const autopilotLine = (text: string | RegExp) => main().getByRole('status').filter({ hasText: text });
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    const autopilot = main().getByRole('switch', { name: 'Autopilot' });
    await autopilot.click();
    await expect.poll(() => autopilot.getAttribute('aria-checked')).toBe('true');

    s.model.push(
      plan(STEPS, [I, P, P]),
      { text: 'Started collecting.' },
      { text: 'Thinking about the data.' },
      { text: 'Still thinking.' },
    );
    s.assessor.push(verdict(false, 'Only started.'), verdict(false, 'Nothing collected.'));
    const checks = s.assessorRequests().length;
    await page().getByRole('textbox', { name: 'Message' }).fill('Do the report on Autopilot.');
    await page().keyboard.press('Enter');

    const notDone = autopilotLine(/is not done/);
    await notDone.waitFor();
    await notDone.getByRole('button', { name: 'Continue', exact: true }).click();
    await lastAssistant().filter({ hasText: 'Thinking about the data.' }).waitFor();
    await expect.poll(() => s.assessorRequests().length - checks).toBe(2);
    await notDone.getByRole('button', { name: 'Continue', exact: true }).click();

    const noProgress = autopilotLine('No progress on task 1');
    await noProgress.waitFor();
    await lastAssistant().filter({ hasText: 'Still thinking.' }).waitFor();
    expect(s.assessorRequests().length - checks).toBe(2);
    expect(await autoMessages().allInnerTexts()).toEqual(['Continuing: Collect data', 'Continuing: Collect data']);
  });
});
