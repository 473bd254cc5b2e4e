// The task list end to end, in Debian Chromium against the browser host and the scripted
// server: the sticky header appears and follows the model's manage_todo_list calls round
// by round, folds and unfolds, shows a blocked task (granular tools chosen in Settings),
// the user's tick reaches the model as a notice line, a restart keeps the list, and the
// finished list reads "All 5 tasks completed". The tests share one conversation, in order.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody, Turn } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';
import { gate, systemPromptOf, turnQueue } from './support/chatScript';

const TITLE = 'Build the inventory app';
const TITLES = ['Set up project structure', 'Create data models', 'Build UI widget', 'Write tests', 'Package the app'];

const turns = turnQueue({ title: () => TITLE });

const page = (): Page => app.page;
const tasks = () => page().getByRole('region', { name: 'Tasks', exact: true });
const composer = () => page().getByRole('textbox', { name: 'Message' });
const sendButton = () => page().getByRole('button', { name: 'Send', exact: true });
const lastAssistant = () => page().getByRole('article', { name: 'Assistant message', exact: true }).last();
const toggle = () => tasks().getByRole('button', { name: /^(Expand|Collapse) task list$/ });
const rowNames = () =>
  tasks()
    .getByRole('list', { name: 'Task list' })
    .getByRole('button', { name: /^Task \d+, / })
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
const summary = (text: string) => tasks().getByText(text, { exact: true });
const conversationLink = () =>
  page().getByRole('list', { name: 'Saved conversations' }).getByRole('link', { name: TITLE });

type Status = 'pending' | 'in_progress' | 'completed';

function fullList(statuses: Status[], activeForm?: string): Turn {
  return {
    toolCalls: [
      {
        name: 'manage_todo_list',
        arguments: JSON.stringify({
          todoList: TITLES.map((title, i) => ({
            id: i + 1,
            title,
            status: statuses[i],
            ...(statuses[i] === 'in_progress' && activeForm ? { activeForm } : {}),
          })),
        }),
      },
    ],
  };
}

const update = (args: Record<string, unknown>) => ({ name: 'task_update', arguments: JSON.stringify(args) });
const toolNames = (body: ChatBody) => (body.tools ?? []).map((t) => t.function.name);

async function send(text: string) {
  await composer().fill(text);
  await sendButton().click();
}

/** The turn is over and the reply ends with `text`. */
async function replied(text: string) {
  await lastAssistant().getByText(text).waitFor({ timeout: 15_000 });
  await sendButton().waitFor({ timeout: 15_000 });
}

async function expanded(): Promise<boolean> {
  return (await toggle().getAttribute('aria-expanded')) === 'true';
}

const { app, server } = appPerFile({ name: 'tasks', server: { script: turns.script } });

describe('the task header in the browser', () => {
  it('appears and updates live while the model works, and folds and unfolds', async () => {
    const secondRound = gate();
    const endOfTurn = gate();
    turns.push(
      fullList(['in_progress', 'pending', 'pending', 'pending', 'pending'], 'Setting up project structure'),
      async () => {
        await secondRound.opened;
        return fullList(['completed', 'in_progress', 'pending', 'pending', 'pending'], 'Creating data models');
      },
      async () => {
        await endOfTurn.opened;
        return { text: 'The structure is in place; data models are under way.' };
      },
    );
    await page().getByRole('button', { name: 'New conversation', exact: true }).first().click();
    await send('Build me an inventory app');

    // The first call's list, while the model is still working: folded, showing what runs.
    await summary('Tasks 0/5').waitFor({ timeout: 15_000 });
    await tasks().getByText('Setting up project structure').first().waitFor();
    expect(await expanded()).toBe(false);
    expect(await tasks().getByRole('list', { name: 'Task list' }).count()).toBe(0);
    expect(await tasks().getByRole('progressbar', { name: 'Task progress' }).getAttribute('aria-valuenow')).toBe('0');

    // The next round's call repaints the header without any action from the user.
    secondRound.open();
    await summary('Tasks 1/5').waitFor({ timeout: 15_000 });
    await tasks().getByText('Creating data models').waitFor();
    expect(await tasks().getByRole('progressbar', { name: 'Task progress' }).getAttribute('aria-valuenow')).toBe('1');

    await tasks().getByRole('button', { name: 'Expand task list' }).click();
    expect(await expanded()).toBe(true);
    expect(await rowNames()).toEqual([
      'Task 1, completed: Set up project structure',
      'Task 2, in progress: Create data models',
      'Task 3, pending: Build UI widget',
      'Task 4, pending: Write tests',
      'Task 5, pending: Package the app',
    ]);
    expect(await tasks().getByRole('checkbox', { name: 'Task 1 done' }).getAttribute('aria-checked')).toBe('true');
    await tasks().getByRole('button', { name: 'Collapse task list' }).click();
    expect(await expanded()).toBe(false);
    await tasks().getByRole('list', { name: 'Task list' }).waitFor({ state: 'detached' });
    await tasks().getByRole('button', { name: 'Expand task list' }).click();
    await tasks().getByRole('list', { name: 'Task list' }).waitFor();

    endOfTurn.open();
    await replied('data models are under way.');
    // The user's choice holds after the turn, and the stored list is the one shown.
    expect(await expanded()).toBe(true);
    expect(await summary('Tasks 1/5').count()).toBe(1);
    const thirdRequest = server.streamRequests()[2].body;
    expect(systemPromptOf(thirdRequest)).toContain(
      [
        '<taskList>',
        '- [completed] (1) Set up project structure',
        '- [in_progress] (2) Create data models — Creating data models',
      ].join('\n'),
    );
  });

  it('shows a task blocked by another when the model uses the granular tools chosen in Settings', async () => {
    await page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'Settings' })
      .click();
    await page().getByRole('link', { name: 'Agent' }).click();
    const style = page().getByRole('combobox', { name: 'Task tool style' });
    await style.selectOption('granular');
    await expect.poll(() => style.inputValue(), { timeout: 5_000 }).toBe('granular');
    await conversationLink().click();
    await tasks().waitFor();

    turns.push(
      { toolCalls: [update({ taskId: 3, addBlockedBy: [2] })] },
      { text: 'The widget now waits for the models.' },
    );
    await send('The widget needs the data models first');
    await replied('The widget now waits for the models.');

    const blocked = tasks().getByRole('button', { name: 'Task 3, blocked by 2: Build UI widget', exact: true });
    await blocked.waitFor();
    // The "blocked by" line sits beside the title button, in the same row.
    expect(await blocked.locator('xpath=ancestor::li[1]').innerText()).toContain('blocked by #2');
    // A padlock, not the ▸ "play" glyph.
    const tick = tasks().getByRole('checkbox', { name: 'Task 3 done' });
    expect(await tick.innerText()).toBe('');
    expect(await tick.locator('svg.task-blocked-icon').count()).toBe(1);
    // The model was offered the granular tools only, and saw the dependency.
    const request = server.streamRequests().at(-1)!.body;
    expect(toolNames(request)).toEqual(expect.arrayContaining(['task_create', 'task_update', 'task_list']));
    expect(toolNames(request)).not.toContain('manage_todo_list');
    expect(systemPromptOf(request)).toContain('- [pending] (3) Build UI widget [blocked by 2]');
  });

  it("sends the user's tick to the model as a notice on the next request", async () => {
    const tick = tasks().getByRole('checkbox', { name: 'Task 2 done' });
    expect(await tick.getAttribute('aria-checked')).toBe('false');
    await tick.click();
    await expect.poll(() => tick.getAttribute('aria-checked'), { timeout: 5_000 }).toBe('true');
    await summary('Tasks 2/5').waitFor();
    // Its blocker done, task 3 is available with no call from anyone.
    await tasks().getByRole('button', { name: 'Task 3, pending: Build UI widget', exact: true }).waitFor();

    turns.push({ text: 'Thanks, I see the models are done.' });
    await send('I wrote the data models myself');
    await replied('Thanks, I see the models are done.');
    const system = systemPromptOf(server.streamRequests().at(-1)!.body);
    expect(system).toContain('The user marked task 2 completed.');
    expect(system).toContain('- [completed] (2) Create data models');
    expect(system).toContain('- [pending] (3) Build UI widget\n');
  });

  it('keeps the list across a restart of the host', async () => {
    await app.restart();
    // Fold/unfold choices live in the page's storage; start from none, as a new browser would.
    await page().evaluate(() => localStorage.clear());
    await conversationLink().click();
    await summary('Tasks 2/5').waitFor({ timeout: 10_000 });
    expect(await expanded()).toBe(true);
    expect(await rowNames()).toEqual([
      'Task 1, completed: Set up project structure',
      'Task 2, completed: Create data models',
      'Task 3, pending: Build UI widget',
      'Task 4, pending: Write tests',
      'Task 5, pending: Package the app',
    ]);
  });

  it('ends with "All 5 tasks completed" when the model finishes the list', async () => {
    const lastRound = gate();
    turns.push(
      { toolCalls: [update({ taskId: 3, status: 'in_progress', activeForm: 'Building the UI widget' })] },
      async () => {
        await lastRound.opened;
        return {
          toolCalls: [update({ taskId: 3, status: 'completed' }), update({ taskId: 4, status: 'in_progress' })],
        };
      },
      { toolCalls: [update({ taskId: 4, status: 'completed' }), update({ taskId: 5, status: 'completed' })] },
      { text: 'All five tasks are done.' },
    );
    await send('Please finish the rest');
    // While the model works the header folds away, showing what is in progress.
    await tasks().getByText('Building the UI widget').waitFor({ timeout: 15_000 });
    expect(await expanded()).toBe(false);
    lastRound.open();
    await replied('All five tasks are done.');

    await summary('All 5 tasks completed').waitFor();
    expect(await expanded()).toBe(false);
    expect(await tasks().getByRole('progressbar', { name: 'Task progress' }).getAttribute('aria-valuenow')).toBe('5');
    await tasks().getByRole('button', { name: 'Expand task list' }).click();
    expect(await rowNames()).toEqual(TITLES.map((title, i) => `Task ${i + 1}, completed: ${title}`));
    // The notice was said once: requests after the one that carried it do not repeat it.
    const since = server.streamRequests().slice(-4);
    for (const request of since) expect(systemPromptOf(request.body)).not.toContain('The user marked');
  });
});
