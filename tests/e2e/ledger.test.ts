// The task ledger in the browser: the scripted model plans two tasks and calls a tool
// (one the app does not have: a real action that failed) while task 1 is in progress; task 1's expanded row then shows "1 tool call"
// (the list's own updates are bookkeeping, not actions), clicking it lists the call, and
// the call jumps to its card in the transcript.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';
import { systemPromptOf, turnQueue } from './support/chatScript';

const turns = turnQueue({ title: () => 'Ledger' });
const page = (): Page => app.page;
const tasks = () => page().getByRole('region', { name: 'Tasks', exact: true });
const messages = () => page().getByRole('log', { name: 'Messages' });

function plan(statuses: string[], titles = ['Look up the time', 'Write the report']): Turn {
  return {
    text: 'Here is the plan.',
    toolCalls: [
      {
        name: 'manage_todo_list',
        arguments: JSON.stringify({ todoList: statuses.map((status, i) => ({ id: i + 1, title: titles[i], status })) }),
      },
    ],
  };
}

const { app, server } = appPerFile({ name: 'ledger', server: { script: turns.script } });

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe-core violations in the task header. */
async function headerViolations(): Promise<string[]> {
  if (!(await page().evaluate(() => 'axe' in window))) await page().evaluate(axeSource);
  return page().evaluate(async () => {
    type Violation = { id: string; impact: string | null };
    const axe = (
      window as unknown as { axe: { run(context: Element, options: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    const region = document.querySelector('section[aria-label="Tasks"]')!;
    const result = await axe.run(region, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}

/** Whether the element is inside the visible part of the message list. */
async function inView(target: Locator): Promise<boolean> {
  const box = await messages().boundingBox();
  const shown = await target.first().boundingBox();
  const targetBox = shown;
  return !!box && !!targetBox && targetBox.y >= box.y && targetBox.y + targetBox.height <= box.y + box.height;
}

describe('the task ledger in the browser', () => {
  it('an expanded row shows "1 tool call"; clicking lists the call and jumps to its card', async () => {
    // A long answer afterwards pushes the card out of view, so the jump has to scroll.
    const longAnswer = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of the report.`).join('\n\n');
    turns.push(
      plan(['in_progress', 'pending']),
      { toolCalls: [{ id: 'call_weather', name: 'lookup_weather', arguments: '{"city":"Oslo"}' }] },
      plan(['completed', 'in_progress']),
      plan(['completed', 'completed']),
      { text: longAnswer },
    );
    await page().getByRole('button', { name: 'New conversation', exact: true }).first().click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Look up the time, then write the report.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await messages().getByText('Line 60 of the report.').waitFor({ timeout: 15_000 });
    await page().getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });

    const toggle = tasks().getByRole('button', { name: /^(Expand|Collapse) task list$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const rows = tasks().getByRole('list', { name: 'Task list' }).getByRole('listitem');
    const row1 = rows.filter({ has: page().getByRole('button', { name: /^Task 1, / }) });
    const count = row1.getByRole('button', { name: '1 tool call', exact: true });
    await count.waitFor({ timeout: 15_000 });
    // Task 2 saw only list updates (bookkeeping): it shows no count; task 1's own update is not counted either.
    expect(
      await tasks()
        .getByRole('button', { name: /tool calls?$/ })
        .count(),
    ).toBe(1);
    expect(await count.getAttribute('aria-expanded')).toBe('false');
    const card = messages().getByText('lookup_weather', { exact: true });
    expect(await inView(card)).toBe(false);

    await count.click();
    expect(await count.getAttribute('aria-expanded')).toBe('true');
    const calls = tasks().getByRole('list', { name: 'Tool calls of task 1' }).getByRole('button');
    await calls.first().waitFor();
    expect(await calls.count()).toBe(1);
    const label = (await calls.first().textContent()) ?? '';
    expect(label).toMatch(/^lookup_weather\s*error\s*\d/);
    expect(await headerViolations()).toEqual([]);

    await calls.first().click();
    await expect.poll(() => inView(card), { message: 'the tool card scrolls into view' }).toBe(true);
  });

  it('a worker’s call is listed under the task it owns and jumps to its card in the worker’s transcript', async () => {
    let main = 0;
    server.setScript((req) => {
      const body = req.body;
      if (!body.stream) return { text: 'Delegated report' };
      if (/<task>\n/.test(systemPromptOf(body))) {
        return body.messages.some((m) => m.role === 'tool')
          ? { text: 'Report written.' }
          : { toolCalls: [{ id: 'call_worker_ask', name: 'ask_user', arguments: '{"question":"How long?"}' }] };
      }
      main++;
      if (main === 1) return plan(['in_progress', 'pending'], ['Plan the report', 'Draft the report']);
      if (main === 2)
        return {
          toolCalls: [
            {
              id: 'call_start',
              name: 'start_task',
              arguments: JSON.stringify({ task_description: 'Draft the report', taskId: 2 }),
            },
          ],
        };
      if (main === 3) return { text: 'A worker is drafting it.' };
      return { text: 'Report received.' };
    });
    await page().getByRole('button', { name: 'New conversation', exact: true }).first().click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Plan the report and have a worker draft it.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    const question = page().getByRole('region', { name: 'Question from Worker 1' });
    await question.getByRole('textbox', { name: 'Your answer to Worker 1' }).fill('One page.');
    await question.getByRole('button', { name: 'Answer', exact: true }).click();
    await messages().getByText('Report received.').waitFor({ timeout: 20_000 });

    const toggle = tasks().getByRole('button', { name: /^(Expand|Collapse) task list$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const row = (n: number) =>
      tasks()
        .getByRole('list', { name: 'Task list' })
        .getByRole('listitem')
        .filter({ has: page().getByRole('button', { name: new RegExp(`^Task ${n}, `) }) });
    // start_task served task 1 (the main agent's); the worker's call served task 2.
    await row(1).getByRole('button', { name: '1 tool call', exact: true }).waitFor({ timeout: 15_000 });
    const count = row(2).getByRole('button', { name: '1 tool call', exact: true });
    await count.click();
    const call = tasks().getByRole('list', { name: 'Tool calls of task 2' }).getByRole('button');
    await call.first().waitFor();
    expect(await call.first().textContent()).toMatch(/^ask_user\s*ok\s*worker-1/);
    await call.first().click();
    const transcript = page().getByRole('region', { name: 'Worker 1 transcript' });
    await transcript.waitFor({ timeout: 10_000 });
    const card = transcript.getByRole('group', { name: 'Worker 1 asked' });
    await card.waitFor({ timeout: 10_000 });
    expect(await card.isVisible()).toBe(true);
  });
});
