// The task rules of issue 11 in Chromium, against the scripted server with no model delay:
// a JSON-string todoList is accepted; the user's tick, rename and add survive a full-list
// rewrite that omits them; three workers that finish make the header read 3/3 at once;
// a failed worker's task shows a ⚠ with its reason.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody, Turn } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';
import { tasksRegion, taskRowNames } from './support/taskList';
import { gate, systemPromptOf } from './support/chatScript';

const taskOf = (body: ChatBody) => /<task>\n([\s\S]*?)\n<\/task>/.exec(systemPromptOf(body))?.[1] ?? null;
const users = (body: ChatBody) => body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
const endsWithToolResults = (body: ChatBody) => body.messages.at(-1)?.role === 'tool';
const workerResults = (body: ChatBody) =>
  users(body).filter((text) => /^(Worker \d+|Task \d+ was completed by worker)/.test(text)).length;
const plan = (todoList: Array<{ id: number; title: string; status: string }>, asString = false): Turn => ({
  toolCalls: [
    {
      name: 'manage_todo_list',
      arguments: JSON.stringify({ todoList: asString ? JSON.stringify(todoList) : todoList }),
    },
  ],
});
const baskets = [1, 2, 3].map((n) => ({ id: n, title: `Count basket ${n}`, status: 'pending' }));
const release = ['Collect the changes', 'Run the tests', 'Tag the version', 'Write the notes', 'Publish the build'];

const finalAnswer = gate();

async function play(body: ChatBody): Promise<Turn> {
  if (!body.stream) return { text: 'Task rules' };
  const task = taskOf(body);
  if (task?.startsWith('Fail:')) return { status: 401, errorMessage: 'bad key' };
  if (task) return { text: `${task}: 12 apples.` };
  const said = users(body);
  if (endsWithToolResults(body)) return { text: 'Noted the list.' };
  switch (said[0]) {
    case 'Plan with a string':
      return plan(
        [1, 2, 3].map((id) => ({ id, title: `String step ${id}`, status: 'pending' })),
        true,
      );
    case 'Plan the release':
      if (said.length === 1)
        return plan(
          release.map((title, i) => ({
            id: i + 1,
            title,
            status: i === 0 ? 'completed' : i === 1 ? 'in_progress' : 'pending',
          })),
        );
      // Unaware of the user's edits: task 3 not ticked, task 4's old title, no task 6.
      return plan(
        release.map((title, i) => ({
          id: i + 1,
          title,
          status: i < 2 ? 'completed' : i === 2 ? 'in_progress' : 'pending',
        })),
      );
    case 'Count the baskets': {
      const results = workerResults(body);
      if (results === 0) {
        return {
          toolCalls: [
            plan(baskets).toolCalls![0],
            ...[1, 2, 3].map((n) => ({
              name: 'start_task',
              arguments: JSON.stringify({ task_description: `Count basket ${n}`, taskId: n }),
            })),
          ],
        };
      }
      if (results < 3) return { text: `Got ${results} of 3.` };
      await finalAnswer.opened; // the main agent is still thinking when the header is read
      return { text: 'All three counted.' };
    }
    case 'Count the north basket':
      if (workerResults(body)) return { text: 'I will look at task 2 myself.' };
      return {
        toolCalls: [
          plan([
            { id: 1, title: 'Plan the count', status: 'in_progress' },
            { id: 2, title: 'Count north basket', status: 'pending' },
            { id: 3, title: 'Report', status: 'pending' },
          ]).toolCalls![0],
          {
            name: 'start_task',
            arguments: JSON.stringify({ task_description: 'Fail: count north basket', taskId: 2 }),
          },
        ],
      };
    default:
      return { text: 'OK' };
  }
}

const page = (): Page => app.page;
const tasks = () => tasksRegion(page());
const rowNames = () => taskRowNames(page());
const summary = () => tasks().locator('.task-count').innerText();
const messages = () => page().getByRole('log', { name: 'Messages' });

async function startConversation(text: string) {
  await page().getByRole('button', { name: 'New conversation', exact: true }).first().click();
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().getByRole('button', { name: 'Send', exact: true }).click();
}

async function send(text: string) {
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().getByRole('button', { name: 'Send', exact: true }).click();
}

/**
 * The header folds while the model runs. A click that races the end of a run can fold it
 * instead; after the first click the user's choice holds, so one more click settles it.
 */
async function expandTasks() {
  const toggle = tasks().getByRole('button', { name: /^(Expand|Collapse) task list$/ });
  const expanded = tasks().getByRole('button', { name: 'Collapse task list' });
  for (let attempt = 0; attempt < 3; attempt++) {
    if ((await toggle.getAttribute('aria-expanded')) === 'true') break;
    await toggle.click({ timeout: 5_000 }).catch(() => {});
    await expanded.waitFor({ timeout: 1_000 }).catch(() => {});
  }
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
}

const { app, server } = appPerFile({
  name: 'task-rules',
  server: { script: (request) => play(request.body) },
  beforeClose: () => finalAnswer.open(),
});

describe('task rules in the browser', () => {
  it('accepts a todoList sent as a JSON string, and the list shows', async () => {
    await startConversation('Plan with a string');
    await messages().getByText('Noted the list.').waitFor({ timeout: 15_000 });
    await expandTasks();
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual(['Task 1, pending: String step 1', 'Task 2, pending: String step 2', 'Task 3, pending: String step 3']);
  });

  it("keeps the user's tick, rename and add when a full-list rewrite omits them", async () => {
    await startConversation('Plan the release');
    await messages().getByText('Noted the list.').waitFor({ timeout: 15_000 });
    await expandTasks();
    await expect.poll(rowNames, { timeout: 10_000 }).toContain('Task 3, pending: Tag the version');

    await tasks().getByRole('checkbox', { name: 'Task 3 done' }).click();
    await tasks().getByRole('button', { name: 'Task 4, pending: Write the notes' }).focus();
    await page().keyboard.press('F2');
    const rename = tasks().getByRole('textbox', { name: 'Rename task 4' });
    await rename.fill('Write the release notes');
    await rename.press('Enter');
    await tasks().getByRole('button', { name: 'Task list actions' }).click();
    await page().getByRole('menuitem', { name: 'Add task' }).click();
    const add = tasks().getByRole('textbox', { name: 'New task title' });
    await add.fill('Write changelog');
    await add.press('Enter');
    const edited = [
      'Task 1, completed: Collect the changes',
      'Task 2, in progress: Run the tests',
      'Task 3, completed: Tag the version',
      'Task 4, pending: Write the release notes',
      'Task 5, pending: Publish the build',
      'Task 6, pending: Write changelog',
    ];
    await expect.poll(rowNames, { timeout: 10_000 }).toEqual(edited);

    const before = server.chatRequests().length;
    await send('Go on');
    await expect.poll(() => messages().getByText('Noted the list.').count(), { timeout: 15_000 }).toBe(2);
    await expandTasks();
    // The model's own change (task 2 completed) applies; the user's three edits stay.
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual(edited.map((name) => name.replace('Task 2, in progress', 'Task 2, completed')));
    const toolResult = server
      .chatRequests()
      .slice(before)
      .flatMap((r) => r.body.messages)
      .find((m) => m.role === 'tool' && String(m.content).includes("Kept the user's changes"));
    expect(String(toolResult?.content)).toContain(
      "Kept the user's changes: task 3 stays completed; task 4 keeps the title 'Write the release notes'; task 6 'Write changelog' stays in the list. Send them again if you really mean to change them.",
    );
  });

  it('three workers finish: the header reads 3/3 at once, before the main agent says anything', async () => {
    await startConversation('Count the baskets');
    await messages().getByText('Noted the list.').waitFor({ timeout: 15_000 });
    const strip = page().getByRole('navigation', { name: 'Workers' });
    await expect
      .poll(() => strip.getByRole('status').innerText(), { timeout: 15_000 })
      .toBe('Workers: 0 running · 0 queued · 3 done');
    // The main agent's last turn is held open: only the workers can have completed the tasks.
    await expect.poll(summary, { timeout: 5_000 }).toBe('Tasks 3/3');
    const badge = page().getByRole('complementary', { name: 'Conversations' }).getByText('3/3', { exact: true });
    await badge.first().waitFor({ timeout: 5_000 });
    // Each result is one quiet line in the transcript, the worker and its task named.
    for (const n of [1, 2, 3])
      await messages().getByText(`Worker ${n} finished task ${n}`, { exact: true }).waitFor({ timeout: 5_000 });
    finalAnswer.open();
    await messages().getByText('All three counted.').waitFor({ timeout: 15_000 });
    await expect.poll(summary, { timeout: 5_000 }).toBe('All 3 tasks completed');
  });

  it('a failed worker leaves its task in progress with a ⚠ that says why', async () => {
    await startConversation('Count the north basket');
    await messages().getByText('I will look at task 2 myself.').waitFor({ timeout: 15_000 });
    await expandTasks();
    const marker = tasks().getByRole('img', { name: 'Worker 1 failed; handed back' });
    await marker.waitFor({ timeout: 10_000 });
    expect(await marker.innerText()).toBe('⚠');
    await expect.poll(rowNames).toContain('Task 2, in progress: Count north basket');
    // Nothing runs it now, so its icon is still.
    // `has` is queried inside each row, so its locator must not start at the region.
    const row = tasks()
      .getByRole('listitem')
      .filter({ has: page().getByRole('img', { name: 'Worker 1 failed; handed back' }) });
    expect(await row.count()).toBe(1);
    expect(await row.locator('.spinner').count()).toBe(0);
    expect(await summary()).toBe('Tasks 0/3');
  });
});
