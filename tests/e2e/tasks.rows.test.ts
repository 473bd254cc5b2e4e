// Task rows read the same everywhere (issue 34): a completed title is struck through in the
// header as on the board, a worker's task names its owner "Worker 1", rows show places in
// the list (a reordered list reads 1, 2, 3), a blocked task shows no ▸ "play" glyph, offers
// "Remove dependency on #N" in its menu and when ticked, and Delete offers Undo.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTaskFixture } from '../support/taskFixture';
import { makeDataDir, OFFLINE_BASE_URL } from './support/app';
import { appPerFile } from './support/appPerFile';

let dataDir: string;
const page = (): Page => app.page;
const tasks = () => page().getByRole('region', { name: 'Tasks', exact: true });
const rowNames = () =>
  tasks()
    .getByRole('list', { name: 'Task list' })
    .getByRole('button', { name: /^Task \d+, / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));

async function rowMenu(task: number, item: string) {
  await tasks()
    .getByRole('button', { name: `Actions for task ${task}`, exact: true })
    .click();
  await page()
    .getByRole('menu', { name: `Actions for task ${task}` })
    .getByRole('menuitem', { name: item, exact: true })
    .click();
}

const { app } = appPerFile({
  name: 'task-rows',
  env: { OPENAI_BASE_URL: OFFLINE_BASE_URL },
  prepare: async () => {
    dataDir = makeDataDir();
    // Made the way the agents make it: through the real task tools.
    const fixture = createTaskFixture(dataDir);
    await fixture.call('manage_todo_list', {
      todoList: [
        { id: 1, title: 'Gather requirements', status: 'completed' },
        { id: 2, title: 'Sketch the screens', status: 'pending' },
      ],
    });
    expect(await fixture.callJson('task_create', { title: 'Write the code', blockedBy: [2] })).toMatchObject({
      ok: true,
    });
    expect(await fixture.callJson('task_update', { taskId: 2, status: 'in_progress' }, 'worker-1')).toMatchObject({
      ok: true,
    });
    fixture.close();
    return { dataDir };
  },
  ready: async () => {
    await page()
      .getByRole('list', { name: 'Saved conversations' })
      .getByRole('link', { name: /Tasks under test/ })
      .first()
      .click();
    await tasks().getByRole('list', { name: 'Task list' }).waitFor();
  },
  afterClose: () => fs.rmSync(dataDir, { recursive: true, force: true }),
});

describe('task rows', () => {
  it('strikes a completed title through and names a worker owner "Worker 1"', async () => {
    const done = tasks().getByRole('button', { name: 'Task 1, completed: Gather requirements' });
    expect(await done.evaluate((el) => getComputedStyle(el).textDecorationLine)).toContain('line-through');
    const row2 = tasks()
      .getByRole('listitem')
      .filter({ has: page().getByRole('button', { name: /^Task 2, / }) });
    expect(await row2.locator('.owner-badge').innerText()).toBe('Worker 1');
  });

  it('a blocked task: no play glyph, "Remove dependency on #2" in its menu and when ticked', async () => {
    const tick = tasks().getByRole('checkbox', { name: 'Task 3 done' });
    expect(await tick.innerText()).not.toMatch(/[▶▸►]/);
    await tasks().getByRole('button', { name: 'Actions for task 3', exact: true }).click();
    const menu = page().getByRole('menu', { name: 'Actions for task 3' });
    await menu.getByRole('menuitem', { name: 'Remove dependency on #2', exact: true }).waitFor();
    await page().keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    await tick.click();
    const note = tasks().getByRole('alert');
    await note.waitFor();
    expect(await note.innerText()).toContain('Task 3 waits for #2');
    expect(await tick.getAttribute('aria-checked')).toBe('false');
    await note.getByRole('button', { name: 'Remove dependency on #2' }).click();
    await tasks().getByRole('button', { name: 'Task 3, pending: Write the code' }).waitFor();
  });

  it('rows show places, not ids: a reordered list reads 1, 2, 3', async () => {
    await rowMenu(3, 'Move up');
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual([
        'Task 1, completed: Gather requirements',
        'Task 2, pending: Write the code',
        'Task 3, in progress: Sketch the screens',
      ]);
    expect(await tasks().locator('.task-seq').allInnerTexts()).toEqual(['1', '2', '3']);
  });

  it('deleting a task offers Undo, which puts it back in its place', async () => {
    await rowMenu(2, 'Delete');
    const notice = page().getByRole('status').filter({ hasText: 'Deleted task 2, “Write the code”.' });
    await notice.waitFor();
    await expect
      .poll(rowNames)
      .toEqual(['Task 1, completed: Gather requirements', 'Task 2, in progress: Sketch the screens']);
    await notice.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual([
        'Task 1, completed: Gather requirements',
        'Task 2, pending: Write the code',
        'Task 3, in progress: Sketch the screens',
      ]);
  });
});
