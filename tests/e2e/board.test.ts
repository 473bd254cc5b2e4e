// The task board: every open task list across conversations. Opened from the sidebar's
// "Tasks" entry and by shortcut; filtered; ticked, renamed and reordered with the
// header's rules (the model hears of it); a task opens its conversation with the task
// shown; exported as shown (and from "Export tasks…" with the same scope); and live
// when another tab changes another conversation.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { makeDataDir } from './support/app';
import { appPerFile } from './support/appPerFile';
import { nextSystemPrompt, sendSmallAppPlan, turnQueue } from './support/chatScript';
import { violations } from './support/axe';
import { expandTaskList, tasksRegion } from './support/taskList';

let root: string;
const turns = turnQueue({ title: (body) => (JSON.stringify(body).includes('packing') ? 'Packing' : 'Plan the app') });

const page = (): Page => app.page;
const board = (p: Page = page()) => p.getByRole('region', { name: 'Task board' });
const group = (title: string, p: Page = page()) => board(p).getByRole('region', { name: title, exact: true });
const groupTitlesOf = (p: Page) =>
  board(p)
    .getByRole('region')
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
const groupTitles = () => groupTitlesOf(page());
const sidebarLink = (title: string, p: Page = page()) =>
  p.getByRole('list', { name: 'Saved conversations' }).getByRole('link', { name: title });
const openBoard = () => page().getByRole('button', { name: 'Tasks', exact: true }).click();

const { app, server } = appPerFile({
  name: 'board',
  server: { script: turns.script },
  prepare: async () => {
    root = makeDataDir();
    const dataDir = path.join(root, 'data');
    const core = createNodeCore({ dataDir, env: {} });
    const ok = async <T>(method: string, params: unknown): Promise<T> => {
      const result = await core.dispatch(method, params);
      if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
      return result.value as T;
    };
    const withList = async (title: string, tasks: string[]) => {
      const { id } = await ok<{ id: string }>('conversations:create', { title });
      for (const task of tasks) await ok('tasks:add', { conversationId: id, title: task });
      return id;
    };
    const work = await ok<{ id: string }>('folders:create', { name: 'Work' });
    const trip = await withList('Trip to Lisbon', ['Book flights', 'Find a hotel', 'Rent a car']);
    await ok('conversations:setFolder', { id: trip, folderId: work.id });
    await ok('tasks:update', { conversationId: trip, taskId: 1, patch: { status: 'completed' } });
    await ok('tasks:update', { conversationId: trip, taskId: 2, patch: { status: 'in_progress' } });
    // Rent a car waits for the hotel, and a worker owns it.
    core.db
      .prepare(`INSERT INTO task_deps (task_id, blocked_by_id) SELECT a.id, b.id FROM tasks a, tasks b JOIN task_lists l ON l.id = a.list_id
                WHERE l.conversation_id = ? AND b.list_id = a.list_id AND a.seq = 3 AND b.seq = 2`)
      .run(trip);
    core.db
      .prepare(
        `UPDATE tasks SET owner = 'worker-2' WHERE seq = 3 AND list_id = (SELECT id FROM task_lists WHERE conversation_id = ?)`,
      )
      .run(trip);
    const done = await withList('Finished report', ['Write it']);
    await ok('tasks:update', { conversationId: done, taskId: 1, patch: { status: 'completed' } });
    await ok('conversations:create', { title: 'Empty chat' });
    await core.close();

    return { dataDir };
  },
  ready: () => sendSmallAppPlan(page(), turns, ['completed', 'pending', 'pending']),
  afterClose: () => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  },
});

describe('the task board', () => {
  it('opens from the sidebar entry with every unfinished list, newest activity first', async () => {
    await openBoard();
    await group('Plan the app').waitFor();
    expect(await groupTitles()).toEqual(['Plan the app', 'Trip to Lisbon']);
    const trip = group('Trip to Lisbon');
    await trip.getByText('Work /').waitFor();
    await trip.getByText('1/3', { exact: true }).waitFor();
    await trip.getByText('Now: Find a hotel').waitFor();
    await trip.getByRole('button', { name: 'Task 3, blocked by 2: Rent a car' }).waitFor();
    await trip.getByText('Worker 2', { exact: true }).waitFor();
    await trip.getByText('blocked by #2').waitFor();
    await board().getByRole('checkbox', { name: 'Show completed lists' }).check();
    await group('Finished report').waitFor();
    await board().getByRole('checkbox', { name: 'Show completed lists' }).uncheck();
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Plan the app', 'Trip to Lisbon']);
    expect(await violations(page())).toEqual([]);
  });

  it('opens by Ctrl+Shift+T and Alt+Shift+T', async () => {
    await sidebarLink('Empty chat').click();
    await board().waitFor({ state: 'detached' });
    await page().keyboard.press('Alt+Shift+KeyT');
    await group('Trip to Lisbon').waitFor();
    await sidebarLink('Empty chat').click();
    await board().waitFor({ state: 'detached' });
    await page().keyboard.press('Control+Shift+KeyT');
    await group('Trip to Lisbon').waitFor();
  });

  it('refuses an edit that breaks the task rules with the rule’s message, and changes nothing', async () => {
    const trip = group('Trip to Lisbon');
    await trip.getByRole('checkbox', { name: 'Task 3 done' }).click();
    await page()
      .getByRole('status')
      .getByText(/Task 3 cannot be completed: it is blocked by 2/)
      .waitFor({ timeout: 10_000 });
    await trip.getByRole('button', { name: 'Task 3, blocked by 2: Rent a car' }).waitFor();
    expect(await trip.getByRole('checkbox', { name: 'Task 3 done' }).getAttribute('aria-checked')).toBe('false');
  });

  it('filters by text, status and folder', async () => {
    const search = board().getByRole('searchbox', { name: 'Filter by title' });
    await search.fill('LISBON');
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Trip to Lisbon']);
    await search.fill('sketch');
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Plan the app']);
    await expect
      .poll(() =>
        group('Plan the app')
          .getByRole('button', { name: /^Task \d+, / })
          .count(),
      )
      .toBe(1);
    await search.fill('');
    await board().getByRole('checkbox', { name: 'Blocked' }).check();
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Trip to Lisbon']);
    await expect
      .poll(() =>
        group('Trip to Lisbon')
          .getByRole('button', { name: /^Task \d+, / })
          .count(),
      )
      .toBe(1);
    await board().getByRole('checkbox', { name: 'Blocked' }).uncheck();
    await board().getByRole('combobox', { name: 'Folder' }).selectOption({ label: 'Work' });
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Trip to Lisbon']);
    await board().getByRole('combobox', { name: 'Folder' }).selectOption({ label: 'All folders' });
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Plan the app', 'Trip to Lisbon']);
  });

  it('ticks, renames and reorders with the header’s calls; the header and the model see it', async () => {
    const plan = group('Plan the app');
    await plan.getByRole('checkbox', { name: 'Task 2 done' }).click();
    await plan.getByRole('button', { name: 'Task 2, completed: Sketch the screens' }).waitFor();
    await plan.getByRole('button', { name: 'Actions for task 3', exact: true }).click();
    await page().getByRole('menuitem', { name: 'Rename', exact: true }).click();
    const field = plan.getByRole('textbox', { name: 'Rename task 3' });
    await field.fill('Write and test the code');
    await field.press('Enter');
    await plan.getByRole('button', { name: 'Task 3, pending: Write and test the code' }).waitFor();
    await plan.getByRole('button', { name: 'Actions for task 3', exact: true }).click();
    await page().getByRole('menuitem', { name: 'Move up', exact: true }).click();
    await expect
      .poll(() =>
        plan
          .getByRole('button', { name: /^Task \d+, / })
          .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label'))),
      )
      .toEqual([
        'Task 1, completed: Gather requirements',
        'Task 2, pending: Write and test the code',
        'Task 3, completed: Sketch the screens',
      ]);

    // A task opens its conversation with the header showing it, at the message where it changed.
    await plan.getByRole('button', { name: 'Task 1, completed: Gather requirements' }).click();
    const header = page().getByRole('region', { name: 'Tasks', exact: true });
    await header.getByRole('button', { name: 'Task 2, pending: Write and test the code' }).waitFor();
    await header.getByRole('button', { name: 'Task 3, completed: Sketch the screens' }).waitFor();
    await expect.poll(() => page().getByText('Here is the plan.').isVisible(), { timeout: 10_000 }).toBe(true);

    const prompt = await nextSystemPrompt(page(), server, turns);
    const notice = prompt.split('\n').find((line) => line.startsWith('The user '));
    expect(notice).toBe('The user marked task 2 completed, renamed task 3 and reordered the tasks.');
  });

  it('exports what it shows as CSV, Markdown and JSON', async () => {
    await openBoard();
    await board().getByRole('searchbox', { name: 'Filter by title' }).fill('lisbon');
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Trip to Lisbon']);
    // The browser host streams the file from its HTTP route, not as one WebSocket frame.
    const routed: string[] = [];
    const onRequest = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === '/export/board') routed.push(url.searchParams.get('format') ?? '');
    };
    page().on('request', onRequest);
    const exported = async (item: string) => {
      const [download] = await Promise.all([
        page().waitForEvent('download'),
        (async () => {
          await board().getByRole('button', { name: 'Export board' }).click();
          await page().getByRole('menuitem', { name: item }).click();
        })(),
      ]);
      const file = path.join(root, download.suggestedFilename());
      await download.saveAs(file);
      return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
    };
    const csv = await exported('Export as CSV');
    expect(csv.name).toMatch(/^stepwise-tasks-open-.*\.csv$/);
    expect(csv.text).toContain('Trip to Lisbon');
    expect(csv.text).not.toContain('Plan the app');
    const md = await exported('Export as Markdown');
    expect(md.text).toContain('# Open tasks across conversations');
    expect(md.text).toContain('- [ ] Rent a car _(blocked by #2)_ _(owner: worker-2)_');
    const json = JSON.parse((await exported('Export as JSON')).text) as {
      format: string;
      conversations: Array<{ title: string }>;
    };
    expect(json.format).toBe('stepwise.tasks');
    expect(json.conversations.map((c) => c.title)).toEqual(['Trip to Lisbon']);
    page().off('request', onRequest);
    expect(routed).toEqual(['csv', 'md', 'json']);
    await board().getByRole('searchbox', { name: 'Filter by title' }).fill('');
  });

  it('"Export tasks…" exports the open tasks across conversations, from a conversation and from the sidebar', async () => {
    const download = async (dialog: ReturnType<Page['getByRole']>, format: string) => {
      await dialog.getByRole('radio', { name: format, exact: true }).check();
      await dialog.getByRole('radio', { name: 'Open tasks across conversations' }).check();
      const [file] = await Promise.all([
        page().waitForEvent('download'),
        dialog.getByRole('button', { name: 'Export', exact: true }).click(),
      ]);
      const saved = path.join(root, `dialog-${file.suggestedFilename()}`);
      await file.saveAs(saved);
      await dialog.waitFor({ state: 'hidden' });
      return { name: file.suggestedFilename(), text: fs.readFileSync(saved, 'utf8') };
    };
    await sidebarLink('Trip to Lisbon').click();
    const header = page().getByRole('region', { name: 'Tasks', exact: true });
    await header.getByRole('button', { name: 'Task list actions' }).click();
    await page()
      .getByRole('menu', { name: 'Task list actions' })
      .getByRole('menuitem', { name: 'Export tasks…', exact: true })
      .click();
    const csv = await download(page().getByRole('dialog', { name: 'Export tasks' }), 'CSV');
    expect(csv.name).toMatch(/^stepwise-tasks-open-.*\.csv$/);
    const rows = parseCsv(csv.text, { columns: true, bom: true }) as Array<Record<string, string>>;
    // Both unfinished lists, newest activity first; the finished report is not open work.
    expect(rows.map((r) => [r.conversation, r.id, r.title, r.status])).toEqual([
      ['Plan the app', '1', 'Gather requirements', 'completed'],
      ['Plan the app', '3', 'Write and test the code', 'pending'],
      ['Plan the app', '2', 'Sketch the screens', 'completed'],
      ['Trip to Lisbon', '1', 'Book flights', 'completed'],
      ['Trip to Lisbon', '2', 'Find a hotel', 'in_progress'],
      ['Trip to Lisbon', '3', 'Rent a car', 'pending'],
    ]);

    // With no conversation (the sidebar's "Export all task lists…") the scope is there too.
    const fromSidebar = async () => {
      await page()
        .getByRole('complementary', { name: 'Conversations' })
        .getByRole('button', { name: 'More actions' })
        .click();
      await page()
        .getByRole('menu', { name: 'More actions' })
        .getByRole('menuitem', { name: 'Export all task lists…' })
        .click();
      return page().getByRole('dialog', { name: 'Export tasks' });
    };
    const dialog = await fromSidebar();
    expect(await dialog.getByRole('radio', { name: 'This task list' }).isDisabled()).toBe(true);
    const md = await download(dialog, 'Markdown');
    expect(md.text).toContain('# Open tasks across conversations');
    expect(md.text).toContain('## Plan the app');
    expect(md.text).toContain('## Trip to Lisbon');
    expect(md.text).not.toContain('Finished report');
    const json = JSON.parse((await download(await fromSidebar(), 'JSON')).text) as {
      format: string;
      conversations: Array<{ title: string }>;
    };
    expect(json.format).toBe('stepwise.tasks');
    expect(json.conversations.map((c) => c.title)).toEqual(['Plan the app', 'Trip to Lisbon']);
  });

  it('a rename elsewhere while the board renames the same task: the last write wins, both are in the history', async () => {
    await openBoard();
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Plan the app', 'Trip to Lisbon']);
    const trip = group('Trip to Lisbon');
    await trip.getByRole('button', { name: 'Actions for task 3', exact: true }).click();
    await page().getByRole('menuitem', { name: 'Rename', exact: true }).click();
    const field = trip.getByRole('textbox', { name: 'Rename task 3' });
    await field.fill('Rent a van');

    const other = await app.openPage();
    try {
      await sidebarLink('Trip to Lisbon', other).click();
      const header = tasksRegion(other);
      await expandTaskList(other);
      await header.getByRole('button', { name: 'Actions for task 3', exact: true }).click();
      await other.getByRole('menuitem', { name: 'Rename', exact: true }).click();
      const otherField = header.getByRole('textbox', { name: 'Rename task 3' });
      await otherField.fill('Rent a bike');
      await otherField.press('Enter');
      await header.getByRole('button', { name: /^Task 3, .*: Rent a bike$/ }).waitFor();
      // The board took the change in while its own rename stayed open with what was typed.
      await expect.poll(() => field.inputValue()).toBe('Rent a van');
      await field.press('Enter');
      await header.getByRole('button', { name: /^Task 3, .*: Rent a van$/ }).waitFor({ timeout: 10_000 });
      await trip.getByRole('button', { name: /^Task 3, .*: Rent a van$/ }).waitFor();
    } finally {
      await other.close();
    }
    await board().getByRole('searchbox', { name: 'Filter by title' }).fill('lisbon');
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Trip to Lisbon']);
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      (async () => {
        await board().getByRole('button', { name: 'Export board' }).click();
        await page().getByRole('menuitem', { name: 'Export as JSON' }).click();
      })(),
    ]);
    const file = path.join(root, `history-${download.suggestedFilename()}`);
    await download.saveAs(file);
    type Exported = {
      conversations: Array<{
        lists: Array<{
          tasks: Array<{
            id: number;
            title: string;
            events: Array<{ actor: string; kind: string; after: string | null }>;
          }>;
        }>;
      }>;
    };
    const task3 = (JSON.parse(fs.readFileSync(file, 'utf8')) as Exported).conversations[0].lists[0].tasks.find(
      (t) => t.id === 3,
    )!;
    expect(task3.title).toBe('Rent a van');
    const renames = task3.events.filter((e) => e.kind === 'updated' && e.after?.includes('"title"'));
    expect(renames.map((e) => [e.actor, JSON.parse(e.after!).title])).toEqual([
      ['user', 'Rent a bike'],
      ['user', 'Rent a van'],
    ]);
    await board().getByRole('searchbox', { name: 'Filter by title' }).fill('');
  });

  it('updates live when another tab changes another conversation’s list', async () => {
    await openBoard();
    await expect.poll(groupTitles, { timeout: 10_000 }).toEqual(['Plan the app', 'Trip to Lisbon']);
    const other = await app.openPage();
    try {
      await sidebarLink('Trip to Lisbon', other).click();
      const header = tasksRegion(other);
      await expandTaskList(other);
      await header.getByRole('checkbox', { name: 'Task 2 done' }).click();
      // Patched in place: the hotel is done, the car is no longer blocked.
      await group('Trip to Lisbon').getByRole('button', { name: 'Task 2, completed: Find a hotel' }).waitFor();
      await group('Trip to Lisbon').getByRole('button', { name: 'Task 3, pending: Rent a van' }).waitFor();
      await group('Trip to Lisbon').getByText('2/3', { exact: true }).waitFor();

      // A list the model starts in another conversation comes in on top.
      turns.push(
        {
          toolCalls: [
            {
              name: 'manage_todo_list',
              arguments: JSON.stringify({ todoList: [{ id: 1, title: 'Pack the bags', status: 'pending' }] }),
            },
          ],
        },
        { text: 'Listed.' },
      );
      await other.getByRole('button', { name: 'New conversation', exact: true }).click();
      await other.getByRole('textbox', { name: 'Message' }).fill('Plan the packing');
      await other.getByRole('button', { name: 'Send', exact: true }).click();
      await group('Packing')
        .getByRole('button', { name: 'Task 1, pending: Pack the bags' })
        .waitFor({ timeout: 15_000 });
      expect(await groupTitles()).toEqual(['Packing', 'Plan the app', 'Trip to Lisbon']);
    } finally {
      await other.close();
    }
    // A renamed folder is renamed on the board too.
    await page().getByRole('button', { name: 'Actions for folder Work', exact: true }).click();
    await page()
      .getByRole('menu', { name: 'Actions for folder Work' })
      .getByRole('menuitem', { name: 'Rename folder…' })
      .click();
    const rename = page().getByRole('dialog', { name: 'Rename folder' });
    await rename.getByRole('textbox', { name: 'Folder name' }).fill('Travel');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await group('Trip to Lisbon').getByText('Travel /').waitFor();
  });
});
