// The conversation's task list as e2e tests find it: by role and accessible name.
import type { Page } from 'playwright-core';

export const tasksRegion = (page: Page) => page.getByRole('region', { name: 'Tasks', exact: true });

export const taskRowList = (page: Page) => tasksRegion(page).getByRole('list', { name: 'Task list' });

/** Each row's accessible name in order, e.g. "Task 2, in progress: Sketch the screens". */
export const taskRowNames = (page: Page) =>
  taskRowList(page)
    .getByRole('button', { name: /^Task \d+, / })
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));

/** Opens the task header if it is collapsed, once its toggle is drawn (a new page draws it a moment after load). */
export async function expandTaskList(page: Page): Promise<void> {
  const toggle = tasksRegion(page).getByRole('button', { name: /^(Expand|Collapse) task list$/ });
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-label')) === 'Expand task list') await toggle.click();
}
