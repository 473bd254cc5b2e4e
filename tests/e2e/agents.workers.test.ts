// Workers end to end, in Debian Chromium against the browser host: the scripted server
// plays the main agent and three workers at once (routed on the system prompt). With
// "Workers running at once" set to 2 in Settings, the strip counts running, queued and done
// workers; a worker's transcript opens, Tab / Shift+Tab cycle, a worker's question is
// answered in its view, Esc goes back, and Stop halts everything with a summary message.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody, Turn } from '../support/scriptedServer';
import { transcriptProblems } from '../support/transcriptValidator';
import { appPerFile } from './support/appPerFile';
import { gate, systemPromptOf } from './support/chatScript';
import { violations } from './support/axe';

const taskOf = (body: ChatBody) => /<task>\n([\s\S]*?)\n<\/task>/.exec(systemPromptOf(body))?.[1] ?? null;
const isMain = (body: ChatBody) => systemPromptOf(body).includes('## Delegating to workers');
const lastUser = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
const workerResults = (body: ChatBody) =>
  body.messages.filter((m) => m.role === 'user' && /^Worker \d+/.test(String(m.content)));
const endsWithToolResults = (body: ChatBody) => body.messages.at(-1)?.role === 'tool';

const RESULT_A = 'a.txt: three lines, all about apples.';
const firstResult = gate();

/** The main agent starts three workers; worker 1 waits for the test, 2 asks, 3 streams slowly. */
async function play(body: ChatBody): Promise<Turn> {
  const task = taskOf(body);
  if (task === 'Summarize a.txt') {
    await firstResult.opened;
    return { text: RESULT_A };
  }
  if (task === 'Summarize b.txt') {
    if (!endsWithToolResults(body))
      return { toolCalls: [{ name: 'ask_user', arguments: '{"question": "How long should the summary be?"}' }] };
    return { hang: true }; // still thinking when Stop comes
  }
  if (task === 'Summarize c.txt') return { text: Array.from({ length: 1200 }, (_, i) => `c${i} `), chunkDelayMs: 40 };
  if (!isMain(body)) return { text: 'Three file summaries' };
  if (lastUser(body) === 'continue') return { text: 'Continuing from where we stopped.' };
  if (endsWithToolResults(body)) return { text: 'Three workers are on it.' };
  const results = workerResults(body).length;
  if (results) return { text: `Got ${results} of 3 summaries.` };
  return {
    toolCalls: ['a', 'b', 'c'].map((name) => ({
      name: 'start_task',
      arguments: JSON.stringify({ task_description: `Summarize ${name}.txt` }),
    })),
  };
}

const page = (): Page => app.page;
const strip = () => page().getByRole('navigation', { name: 'Workers' });
const counts = () => strip().getByRole('status').innerText();
const chip = (name: string | RegExp) => strip().getByRole('button', { name, exact: typeof name === 'string' });
const banner = () =>
  page()
    .getByRole('region', { name: /^Worker \d transcript$/ })
    .getByRole('status');
const composer = () => page().getByRole('textbox', { name: 'Message' });
const conversationMessages = () => page().getByRole('log', { name: 'Messages' });

async function bannerSays(n: number) {
  await expect
    .poll(() => banner().innerText(), { timeout: 5_000 })
    .toContain(`Worker ${n} of 3 — Tab to cycle, Esc to go back`);
}

const { app, server } = appPerFile({
  name: 'workers',
  server: { script: (request) => play(request.body) },
  beforeClose: () => firstResult.open(),
});

describe('workers in the browser', () => {
  it('sets "Workers running at once" to 2 in Settings', async () => {
    const settingsButton = page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'Settings' });
    await settingsButton.click();
    await page().getByRole('link', { name: 'Agent' }).click();
    const field = page().getByRole('spinbutton', { name: 'Workers running at once' });
    expect(await field.inputValue()).toBe('5');
    await field.fill('2');
    await field.press('Tab');
    // Saved: a fresh Settings view reads it back from the host.
    await page().getByRole('button', { name: 'Close settings' }).click();
    await settingsButton.click();
    await page().getByRole('link', { name: 'Agent' }).click();
    await expect
      .poll(() => page().getByRole('spinbutton', { name: 'Workers running at once' }).inputValue(), { timeout: 5_000 })
      .toBe('2');
    await page().getByRole('button', { name: 'Close settings' }).click();
  });

  it('counts running, queued and done workers in the strip', async () => {
    await page().getByRole('button', { name: 'New conversation', exact: true }).first().click();
    await composer().fill('Summarize a.txt, b.txt and c.txt');
    await page().getByRole('button', { name: 'Send', exact: true }).click();

    await strip().waitFor({ timeout: 15_000 });
    await expect.poll(counts, { timeout: 10_000 }).toBe('Workers: 2 running · 1 queued · 0 done');
    await chip('Worker 1, running: Summarize a.txt').waitFor();
    await chip('Worker 2, running, needs your answer: Summarize b.txt').waitFor({ timeout: 10_000 });
    await chip('Worker 3, queued: Summarize c.txt').waitFor();
    // The question itself is in the main view, with who asks it and a box to answer.
    const question = page().getByRole('region', { name: 'Question from Worker 2' });
    await question.getByText('How long should the summary be?').waitFor();
    await question.getByRole('textbox', { name: 'Your answer to Worker 2' }).waitFor();
    expect(await question.getByRole('button', { name: 'Answer', exact: true }).isDisabled()).toBe(true);
    expect(await violations(page())).toEqual([]);
    expect(server.chatRequests().filter((r) => taskOf(r.body) === 'Summarize c.txt')).toHaveLength(0);

    // Worker 1 finishes: the queued worker takes its place, and the main agent gets the result.
    firstResult.open();
    await expect.poll(counts, { timeout: 10_000 }).toBe('Workers: 2 running · 0 queued · 1 done');
    await chip('Worker 1, done: Summarize a.txt').waitFor();
    await chip('Worker 3, running: Summarize c.txt').waitFor();
    // The result reaches the transcript as one line that opens to the result.
    const result = conversationMessages().getByRole('article', { name: 'Worker message' });
    const line = result.locator('summary').filter({ hasText: 'Worker 1 finished' });
    await line.waitFor({ timeout: 10_000 });
    expect(await result.getByText(RESULT_A).count()).toBe(0);
    await line.click();
    await result.getByText(RESULT_A).waitFor();
    await conversationMessages().getByText('Got 1 of 3 summaries.').waitFor({ timeout: 10_000 });
  });

  it('opens a worker, cycles with Tab and Shift+Tab, takes an answer, and Esc goes back', async () => {
    await chip('Worker 1, done: Summarize a.txt').click();
    await bannerSays(1);
    const view = () => page().getByRole('region', { name: /^Worker \d transcript$/ });
    await view().getByRole('article', { name: 'Assistant message' }).getByText(RESULT_A).waitFor();
    // The brief Stepwise gave the worker is not shown as the user's words.
    await view().getByRole('article', { name: 'Stepwise message' }).getByText('Begin your task.').waitFor();
    expect(await view().getByRole('article', { name: 'You message' }).count()).toBe(0);
    // The conversation's composer is out of the way: typing here must not reach the main agent.
    expect(await composer().isVisible()).toBe(false);
    expect(await chip(/^Worker 1, /).getAttribute('aria-pressed')).toBe('true');

    await page().keyboard.press('Tab');
    await bannerSays(2);
    const exchange = view().getByRole('group', { name: 'Worker 2 asked' });
    await exchange.getByText('How long should the summary be?').waitFor();
    await exchange.getByText('Waiting for your answer…').waitFor();
    // Only worker 2's transcript: nothing carried over from worker 1.
    expect(await view().getByText(RESULT_A).count()).toBe(0);
    // The same question in the worker's view; the main view's banner is out of sight.
    const question = view().getByRole('region', { name: 'Question from Worker 2' });
    await question.getByText('How long should the summary be?').waitFor();
    expect(await page().getByRole('region', { name: 'Question from Worker 2' }).count()).toBe(1);
    await question.getByRole('textbox', { name: 'Your answer to Worker 2' }).fill('Two sentences, please.');
    await question.getByRole('button', { name: 'Answer', exact: true }).click();
    await question.waitFor({ state: 'detached', timeout: 10_000 });
    await chip('Worker 2, running: Summarize b.txt').waitFor();
    // The exchange stays readable in the transcript: the question, then the answer.
    await exchange.getByText('You answered:').waitFor({ timeout: 10_000 });
    expect(await violations(page())).toEqual([]);
    expect((await exchange.innerText()).replace(/\n+/g, '\n')).toBe(
      'Worker 2 asked: How long should the summary be?\nYou answered: Two sentences, please.',
    );
    // The answer went to the worker as the result of its ask_user call.
    await expect
      .poll(() => server.chatRequests().filter((r) => taskOf(r.body) === 'Summarize b.txt').length, { timeout: 10_000 })
      .toBe(2);
    const asked = server
      .chatRequests()
      .filter((r) => taskOf(r.body) === 'Summarize b.txt')[1]
      .body.messages.at(-1);
    expect(asked).toMatchObject({ role: 'tool', content: 'The user answered: Two sentences, please.' });

    await page().keyboard.press('Tab');
    await bannerSays(3);
    // Worker 3's transcript is live: its streamed text keeps growing.
    const streamed = view().getByRole('article', { name: 'Assistant message' });
    await streamed.getByText(/c0 c1 c2/).waitFor({ timeout: 10_000 });
    const before = (await streamed.innerText()).length;
    await expect.poll(async () => (await streamed.innerText()).length, { timeout: 5_000 }).toBeGreaterThan(before);

    await page().keyboard.press('Tab');
    await bannerSays(1);
    await page().keyboard.press('Shift+Tab');
    await bannerSays(3);
    await page().keyboard.press('Shift+Tab');
    await bannerSays(2);

    await page().keyboard.press('Escape');
    await view().waitFor({ state: 'detached' });
    await composer().waitFor();
    await conversationMessages().getByText('Got 1 of 3 summaries.').waitFor();
    // Esc in a worker's view only went back: nothing was stopped.
    expect(await counts()).toBe('Workers: 2 running · 0 queued · 1 done');
  });

  it('stops everything with Stop and leaves a summary the model can continue from', async () => {
    await page().getByRole('button', { name: 'Stop', exact: true }).click();
    // Stepwise wrote it, not the user: a quiet line (kind stop_note) that opens to the details.
    const summary = conversationMessages().getByRole('article', { name: 'Stop note' });
    await summary.waitFor({ timeout: 10_000 });
    const line = (await summary.innerText()).trim();
    expect(line).toMatch(/^Stopped at \d\d:\d\d:\d\d$/);
    await summary.getByText(/^Stopped at/).click();
    await summary.getByRole('listitem').first().waitFor();
    const text = (await summary.getByRole('listitem').allInnerTexts()).join(' ');
    expect(text).toMatch(/^Main agent: idle\. /);
    expect(text).toContain('Worker 2 "Summarize b.txt": was streaming.');
    expect(text).toContain('Worker 3 "Summarize c.txt": was streaming.');
    expect(text).not.toContain('Worker 1');
    await expect.poll(counts, { timeout: 10_000 }).toBe('Workers: 0 running · 0 queued · 1 done · 2 stopped');
    await chip('Worker 3, stopped: Summarize c.txt').waitFor();
    await page().getByRole('button', { name: 'Send', exact: true }).waitFor();

    // "continue": the next request carries the summary and every transcript is valid.
    await composer().fill('continue');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await conversationMessages().getByText('Continuing from where we stopped.').waitFor({ timeout: 10_000 });
    const request = server.chatRequests().findLast((r) => isMain(r.body))!.body;
    // The model reads the note as it always did, made from its payload.
    const sent = `[${line}] ${text}`;
    expect(request.messages.some((m) => m.role === 'user' && String(m.content) === sent)).toBe(true);
    expect(transcriptProblems(request.messages)).toEqual([]);
  });
});
