// The message list follows a streaming reply while the user is at the bottom, and stops
// following as soon as they scroll up to read something else. What a pointer presses in it
// stays under the pointer until the release, whatever changes above it.
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
import { expandTaskList, tasksRegion, taskRowNames } from './support/taskList';

const turns = turnQueue({ title: () => 'Scrolling' });
const paragraphs = (n: number, word: string) =>
  Array.from({ length: n }, (_, i) => `${word} paragraph ${i + 1}.`).join('\n\n');

const { app } = appPerFile({ name: 'auto-scroll', server: { script: turns.script } });

const distanceFromBottom = () =>
  app.page.getByRole('log', { name: 'Messages' }).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

describe('auto-scroll', () => {
  it('follows the reply at the bottom and stops when the user scrolls up', async () => {
    const { page } = app;
    turns.push({ text: paragraphs(40, 'Opening') });
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Write a lot');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Opening paragraph 40.').waitFor({ timeout: 15_000 });
    await expect.poll(distanceFromBottom, { timeout: 10_000 }).toBeLessThan(48);

    // A slow reply: the list keeps the newest text in view while nobody scrolls.
    turns.push({ text: paragraphs(60, 'Streaming'), chunkSize: 12, chunkDelayMs: 15 });
    await page.getByRole('textbox', { name: 'Message' }).fill('More');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Streaming paragraph 5.').waitFor({ timeout: 15_000 });
    await expect.poll(distanceFromBottom, { timeout: 10_000 }).toBeLessThan(48);

    // The user scrolls up: the reply keeps growing below, the view stays where they are.
    const log = page.getByRole('log', { name: 'Messages' });
    await log.hover();
    await page.mouse.wheel(0, -1500);
    const readingAt = await log.evaluate((el) => el.scrollTop);
    await page.getByText('Streaming paragraph 30.').waitFor({ timeout: 15_000 });
    expect(await log.evaluate((el) => el.scrollTop)).toBeLessThanOrEqual(readingAt + 1);
    expect(await distanceFromBottom()).toBeGreaterThan(200);

    // Back at the bottom, it follows again until the reply ends.
    await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(distanceFromBottom, { timeout: 10_000 }).toBeLessThan(48);
    await expect.poll(() => page.getByText('Streaming paragraph 60.').isVisible(), { timeout: 10_000 }).toBe(true);
  });

  it('keeps a pressed button under the pointer while the task header above gains a row', async () => {
    const { page } = app;
    const todoList = ['Read the notes', 'Write the summary'].map((title, i) => ({
      id: i + 1,
      title,
      status: 'pending',
    }));
    turns.push(
      { text: 'Planned.', toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] },
      { text: paragraphs(30, 'Planning') },
      { text: paragraphs(40, 'Later') },
    );
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Plan the summary');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Planning paragraph 30.').waitFor({ timeout: 15_000 });
    await page.getByRole('textbox', { name: 'Message' }).fill('Keep going');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Later paragraph 40.').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 20_000 });
    await expandTaskList(page);
    // A second tab adds the task, so nothing in this one moves the pointer or the focus.
    const other = await app.openPage();
    await other.goto(page.url());
    await expandTaskList(other);

    // The pointer is pressed on "Keep going"'s edit button, mid-list, with text below it.
    const keepGoing = page.getByRole('article', { name: 'You message' }).filter({ hasText: 'Keep going' });
    const edit = keepGoing.getByRole('button', { name: 'Edit message' });
    await edit.scrollIntoViewIfNeeded();
    const before = (await edit.boundingBox())!;
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.down();
    await tasksRegion(other).getByRole('button', { name: 'Task list actions' }).click();
    await other.getByRole('menuitem', { name: 'Add task' }).click();
    const field = tasksRegion(other).getByRole('textbox', { name: 'New task title' });
    await field.fill('Check the summary');
    await field.press('Enter');
    await expect.poll(() => taskRowNames(page), { timeout: 10_000 }).toContain('Task 3, pending: Check the summary');
    // The header grew above the list, and the button is where the pointer pressed it.
    expect((await edit.boundingBox())!.y).toBeCloseTo(before.y, 0);
    await page.mouse.up();
    await keepGoing.getByRole('textbox', { name: 'Edit message' }).waitFor({ timeout: 10_000 });
    await other.close();
  });
});
