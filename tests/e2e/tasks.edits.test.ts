// The user's own edits in the task header: add, rename, reorder with the keyboard and by
// dragging, cancel, delete, and click a task to jump to the message where it changed.
// Each edit is recorded with actor `user` and reaches the model as one notice line.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { tasksRegion, taskRowList, taskRowNames } from './support/taskList';
import { nextSystemPrompt, sendSmallAppPlan, turnQueue } from './support/chatScript';

const turns = turnQueue({ title: () => 'Edit my plan' });

const page = (): Page => app.page;
const tasks = () => tasksRegion(page());
const rowList = () => taskRowList(page());
const rowNames = () => taskRowNames(page());
const menuFor = async (id: number, action: string) => {
  await tasks()
    .getByRole('button', { name: `Actions for task ${id}`, exact: true })
    .click();
  await page().getByRole('menuitem', { name: action, exact: true }).click();
};

const { app, server } = appPerFile({
  name: 'task-edits',
  server: { script: turns.script },
  ready: () => sendSmallAppPlan(page(), turns, ['completed', 'pending', 'pending']),
});

describe('editing the task list by hand', () => {
  it('adds a task from the header menu', async () => {
    await tasks().getByRole('button', { name: 'Task list actions' }).click();
    await page().getByRole('menuitem', { name: 'Add task' }).click();
    const field = tasks().getByRole('textbox', { name: 'New task title' });
    await field.fill('Ship it');
    await field.press('Enter');
    await expect.poll(rowNames, { timeout: 10_000 }).toContain('Task 4, pending: Ship it');
  });

  it('renames a task inline with F2', async () => {
    await rowList().getByRole('button', { name: 'Task 3, pending: Write the code' }).focus();
    await page().keyboard.press('F2');
    const field = tasks().getByRole('textbox', { name: 'Rename task 3' });
    await field.fill('Write and review the code');
    await field.press('Enter');
    await expect.poll(rowNames, { timeout: 10_000 }).toContain('Task 3, pending: Write and review the code');
  });

  it('reorders with Alt+Arrow keys and by dragging', async () => {
    await rowList()
      .getByRole('button', { name: /^Task 4, / })
      .focus();
    await page().keyboard.press('Alt+ArrowUp');
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual([
        'Task 1, completed: Gather requirements',
        'Task 2, pending: Sketch the screens',
        'Task 3, pending: Ship it',
        'Task 4, pending: Write and review the code',
      ]);
    // Rows are numbered by place: the list reads 1, 2, 3, 4 after each move.
    await rowList()
      .getByRole('button', { name: /^Task 4, / })
      .dragTo(rowList().getByRole('button', { name: /^Task 2, / }));
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual([
        'Task 1, completed: Gather requirements',
        'Task 2, pending: Write and review the code',
        'Task 3, pending: Sketch the screens',
        'Task 4, pending: Ship it',
      ]);
  });

  it('cancels and deletes tasks from a row menu', async () => {
    await menuFor(3, 'Cancel task');
    await expect.poll(rowNames, { timeout: 10_000 }).toContain('Task 3, cancelled: Sketch the screens');
    await menuFor(4, 'Delete');
    await expect
      .poll(async () => (await rowNames()).some((n) => n?.startsWith('Task 4,')), { timeout: 10_000 })
      .toBe(false);
    // Cancelled tasks do not count: 1 of the 2 remaining tasks is done.
    await tasks().getByText('Tasks 1/2', { exact: true }).waitFor();
  });

  it('tells the model what the user changed on the next request', async () => {
    const prompt = await nextSystemPrompt(page(), server, turns);
    const notice = prompt.split('\n').find((line) => line.startsWith('The user '));
    // Task 4 was added and deleted again: nothing to report about it. The model hears of tasks by id.
    expect(notice).toBe('The user renamed task 3, marked task 2 cancelled and reordered the tasks.');
    expect(prompt).toContain('(3) Write and review the code');
  });

  it('jumps to the message where a task last changed', async () => {
    const log = page().getByRole('log', { name: 'Messages' });
    await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await rowList().getByRole('button', { name: 'Task 1, completed: Gather requirements' }).click();
    await expect
      .poll(
        () =>
          log.getByRole('article', { name: 'Assistant message' }).first().getByText('Here is the plan.').isVisible(),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
  });
});
