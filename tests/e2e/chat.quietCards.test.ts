// Quiet plumbing in the transcript, in Chromium against the scripted server: task-tool
// calls, start_task, think and a worker's result are one-line cards with an icon, closed,
// and their arguments and results are only formatted (and in the page) once opened.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody, Turn } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';
import { systemPromptOf } from './support/chatScript';

const BASKETS = [
  'Count east basket',
  'Count west basket',
  'Count south basket',
  'Count north basket',
  'Add the counts',
];
const RESULT = 'North basket: 12 apples.';

const isWorker = (body: ChatBody) => /<task>/.test(systemPromptOf(body));
const toolResults = (body: ChatBody) => body.messages.filter((m) => m.role === 'tool').length;
const workerDelivered = (body: ChatBody) =>
  body.messages.some(
    (m) => m.role === 'user' && /^(Worker 1 |Task \d+ was completed by worker 1 )/.test(String(m.content)),
  );

function todo(statuses: string[]) {
  return {
    name: 'manage_todo_list',
    arguments: JSON.stringify({ todoList: BASKETS.map((title, i) => ({ id: i + 1, title, status: statuses[i] })) }),
  };
}

function play(body: ChatBody): Turn {
  if (!body.stream) return { text: 'Apple baskets' };
  if (isWorker(body)) return { text: RESULT };
  if (workerDelivered(body)) return { text: 'All counted.' };
  switch (toolResults(body)) {
    case 0:
      return {
        toolCalls: [
          todo(['in_progress', 'pending', 'pending', 'pending', 'pending']),
          { name: 'think', arguments: '{"thought": "East first, then west."}' },
        ],
      };
    case 2:
      return {
        toolCalls: [
          todo(['completed', 'completed', 'in_progress', 'pending', 'pending']),
          { name: 'start_task', arguments: JSON.stringify({ task_description: 'Count north basket', taskId: 4 }) },
        ],
      };
    default:
      return { text: 'A worker counts the north basket.' };
  }
}

const page = (): Page => app.page;
const log = () => page().getByRole('log', { name: 'Messages' });
const card = (label: string) => log().locator('summary').filter({ hasText: label });

const { app, server } = appPerFile({ name: 'quiet-cards', server: { script: (request) => play(request.body) } });

describe('quiet plumbing', () => {
  it('shows plumbing as closed one-line cards, formatted only when opened', async () => {
    await page().getByRole('button', { name: 'New conversation', exact: true }).first().click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Count the apples in the five baskets.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await log().getByText('All counted.').waitFor({ timeout: 15_000 });

    const labels = [
      'Planned 5 tasks',
      'Thought for a moment',
      'Updated tasks · 2/5 done',
      'Started worker 1 · Count north basket',
      'Worker 1 finished task 4',
    ];
    for (const label of labels) await card(label).waitFor();
    // One line each, in transcript order, every card closed, with an icon.
    expect(await log().locator('summary').allInnerTexts()).toEqual(labels);
    expect(await log().locator('details[open]').count()).toBe(0);
    expect(await log().locator('summary .card-icon').count()).toBe(labels.length);
    // Nothing was formatted for the closed cards: no arguments, results or worker result in the page.
    expect(await log().locator('pre').count()).toBe(0);
    expect(await log().getByText(RESULT).count()).toBe(0);
    expect(await log().getByText('manage_todo_list').count()).toBe(0);

    await card('Updated tasks · 2/5 done').click();
    const opened = log().locator('details[open]');
    await opened.locator('pre').nth(1).waitFor();
    const [args, result] = await opened.locator('pre').allInnerTexts();
    expect(JSON.parse(args).todoList.map((t: { status: string }) => t.status)).toEqual([
      'completed',
      'completed',
      'in_progress',
      'pending',
      'pending',
    ]);
    expect(result).toContain('Task list updated');

    await card('Thought for a moment').click();
    await log().getByText('East first, then west.').waitFor();
    await card('Worker 1 finished task 4').click();
    await log().getByText(RESULT).waitFor();
    // The model still got the raw result message.
    const last = server
      .streamRequests()
      .at(-1)!
      .body.messages.findLast((m) => m.role === 'user');
    expect(String(last?.content)).toBe(
      `Task 4 was completed by worker 1 with this result:\n\n${RESULT}\n\nReopen it if the result is not enough.`,
    );
  });
});
