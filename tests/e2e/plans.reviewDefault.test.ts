// Everyday flows with the DEFAULT settings ("Review plans": Before tools that change
// things), never touching the review control: with no tool that changes things, review
// costs nothing. A task list worked through with the task tools only, three workers, and
// Autopilot carrying a list to the end all finish, and no review card shows at any time
// (a MutationObserver in the page watches for one from the first click on).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody, Turn } from '../support/scriptedServer';
import { autopilotAppPerFile } from './support/appPerFile';
import { verdict } from '../support/autopilotServer';
import { systemPromptOf } from './support/chatScript';

const P = 'pending';
const I = 'in_progress';
const C = 'completed';
const FOUR = ['Gather the notes', 'Sort them', 'Write the outline', 'Check the outline'];
const THREE = ['Step one', 'Step two', 'Step three'];

const todo = (titles: string[], statuses: string[]): Turn => ({
  toolCalls: [
    {
      name: 'manage_todo_list',
      arguments: JSON.stringify({ todoList: titles.map((title, i) => ({ id: i + 1, title, status: statuses[i] })) }),
    },
  ],
});
const taskOf = (body: ChatBody) => /<task>\n([\s\S]*?)\n<\/task>/.exec(systemPromptOf(body))?.[1] ?? null;
const firstUser = (body: ChatBody) => String(body.messages.find((m) => m.role === 'user')?.content ?? '');
const lastUser = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
/** Tool results since the last user message: how many rounds of this turn are done. */
const rounds = (body: ChatBody) => {
  const from = body.messages.findLastIndex((m) => m.role === 'user');
  return body.messages.slice(from).filter((m) => m.role === 'assistant').length;
};

/** One model for every flow, routed on what the conversation asked for. */
function model(body: ChatBody): Turn {
  const task = taskOf(body);
  if (task) return { text: `Done: ${task}.` };
  const asked = firstUser(body);
  if (asked.startsWith('Outline')) {
    const statuses = [
      [I, P, P, P],
      [C, C, I, P],
      [C, C, C, C],
    ][rounds(body)];
    return statuses ? todo(FOUR, statuses) : { text: 'All four steps are done.' };
  }
  if (asked.startsWith('Summarize')) {
    if (lastUser(body).startsWith('Worker')) return { text: 'Got a summary.' };
    if (rounds(body) > 0) return { text: 'Three workers are on it.' };
    return {
      toolCalls: ['a', 'b', 'c'].map((name) => ({
        name: 'start_task',
        arguments: JSON.stringify({ task_description: `Summarize ${name}.txt` }),
      })),
    };
  }
  if (asked.startsWith('Do the three steps') && rounds(body) === 0 && lastUser(body) === asked)
    return todo(THREE, [I, P, P]);
  return { text: 'This step is finished.' };
}

const { app, s } = autopilotAppPerFile({
  name: 'plan-review-default',
  prepare: () => ({ planReview: true }),
  ready: async (started) => {
    await started.page.evaluate(() => {
      const seen = { card: false };
      (window as unknown as { reviewCardSeen: typeof seen }).reviewCardSeen = seen;
      new MutationObserver(() => {
        if (document.querySelector('section[aria-label="Review the plan"]')) seen.card = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
  },
});
const page = (): Page => app.page;
const main = () => page().getByRole('main');
const header = () => page().getByRole('region', { name: 'Tasks' });
const cardSeen = () =>
  page().evaluate(() => (window as unknown as { reviewCardSeen: { card: boolean } }).reviewCardSeen.card);

async function send(text: string) {
  await page().getByRole('button', { name: 'New conversation', exact: true }).click();
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().keyboard.press('Enter');
}

describe('plan review with the default settings', () => {
  it('is on by default, and a list worked through with task tools only finishes 4/4 without a review card', async () => {
    for (let i = 0; i < 40; i++) s.model.push((request) => model(request.body));
    await send('Outline my notes in four steps.');
    await header().getByText('All 4 tasks completed').waitFor({ timeout: 20_000 });
    await main().getByText('All four steps are done.').waitFor();
    expect(await header().getByRole('progressbar', { name: 'Task progress' }).getAttribute('aria-valuenow')).toBe('4');
    expect(await page().getByRole('combobox', { name: 'Review plans' }).inputValue()).toBe('before_acting');
    expect(await cardSeen()).toBe(false);
  });

  it('three workers run and finish', async () => {
    await send('Summarize a.txt, b.txt and c.txt.');
    const strip = page().getByRole('navigation', { name: 'Workers' });
    await expect
      .poll(() => strip.getByRole('status').innerText(), { timeout: 20_000 })
      .toBe('Workers: 0 running · 0 queued · 3 done');
    await expect.poll(() => main().getByText('Got a summary.').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    expect(await page().getByText('Held for plan review').count()).toBe(0);
    expect(await cardSeen()).toBe(false);
  });

  it('Autopilot carries a list to the end', async () => {
    s.assessor.push(...THREE.map(() => verdict(true, 'Finished.')));
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    const autopilot = main().getByRole('switch', { name: 'Autopilot' });
    await autopilot.click();
    await expect.poll(() => autopilot.getAttribute('aria-checked')).toBe('true');
    await page().getByRole('textbox', { name: 'Message' }).fill('Do the three steps.');
    await page().keyboard.press('Enter');
    await header().getByText('All 3 tasks completed').waitFor({ timeout: 30_000 });
    expect(await main().getByRole('article', { name: 'Autopilot message' }).count()).toBe(2);
    expect(s.assessorRequests()).toHaveLength(3);
    expect(await cardSeen()).toBe(false);
  });
});
