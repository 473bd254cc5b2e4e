// Export and import in Debian Chromium against the browser host: "Copy as Markdown" and
// "Export tasks…" from the task header menu (the downloaded file parsed by a GFM parser),
// then a conversation exported as JSON and imported back through the browser's file picker.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ConversationExport } from '../../src/shared/exportFormat';
import { createTaskFixture } from '../support/taskFixture';
import { listItems, parseGfm } from '../integration/export/markdownTree';
import { makeDataDir, OFFLINE_BASE_URL } from './support/app';
import { appPerFile } from './support/appPerFile';

const TITLE = 'Tasks under test';

let dataDir: string;
let downloads: string;
const page = (): Page => app.page;
const tasksRegion = () => page().getByRole('region', { name: 'Tasks', exact: true });

async function taskMenu(item: string) {
  await tasksRegion().getByRole('button', { name: 'Task list actions' }).click();
  await page()
    .getByRole('menu', { name: 'Task list actions' })
    .getByRole('menuitem', { name: item, exact: true })
    .click();
}

async function saveDownload(start: () => Promise<void>): Promise<{ download: Download; file: string }> {
  const [download] = await Promise.all([page().waitForEvent('download'), start()]);
  const file = path.join(downloads, download.suggestedFilename());
  await download.saveAs(file);
  return { download, file };
}

const { app } = appPerFile({
  name: 'export',
  env: { OPENAI_BASE_URL: OFFLINE_BASE_URL },
  prepare: async () => {
    dataDir = makeDataDir();
    downloads = fs.mkdtempSync(path.join(dataDir, 'downloads-'));
    // A list made the way the model makes one: through the real task tools.
    const fixture = createTaskFixture(dataDir);
    const set = await fixture.call('manage_todo_list', {
      todoList: [
        { id: 1, title: 'Set up project structure', status: 'completed' },
        { id: 2, title: 'Create data models', status: 'in_progress', description: 'User and Task.' },
        { id: 3, title: '[x] Not done yet', status: 'pending' },
      ],
    });
    expect(set.content).toMatch(/^Task list updated/);
    expect(await fixture.callJson('task_create', { title: 'Write tests', blockedBy: [2] })).toMatchObject({ ok: true });
    fixture.close();
    return { dataDir };
  },
  ready: async () => {
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    await page()
      .getByRole('list', { name: 'Saved conversations' })
      .getByRole('link', { name: new RegExp(TITLE) })
      .first()
      .click();
    await tasksRegion().waitFor({ state: 'visible' });
  },
  afterClose: () => fs.rmSync(dataDir, { recursive: true, force: true }),
});

const EXPECTED_ITEMS = [
  { checked: true, title: 'Set up project structure', notes: [] },
  { checked: false, title: 'Create data models', notes: ['(in progress)'] },
  { checked: false, title: '[x] Not done yet', notes: [] },
  { checked: false, title: 'Write tests', notes: ['(blocked by #2)'] },
];

describe('task list export in the browser', () => {
  it('copies the task list as Markdown', async () => {
    await taskMenu('Copy as Markdown');
    await page().getByText('Task list copied as Markdown').waitFor({ state: 'visible' });
    const text = await page().evaluate(() => navigator.clipboard.readText());
    expect(text).toMatch(new RegExp(`^# ${TITLE}\\n`));
    expect(text).toContain('Progress: 1/4');
    expect(listItems(parseGfm(text)).map(({ checked, title, notes }) => ({ checked, title, notes }))).toEqual(
      EXPECTED_ITEMS,
    );
  });

  it('downloads the task list as Markdown from "Export tasks…"', async () => {
    await taskMenu('Export tasks…');
    const dialog = page().getByRole('dialog', { name: 'Export tasks' });
    await dialog.getByRole('radio', { name: 'Markdown' }).check();
    await dialog.getByRole('radio', { name: 'This task list' }).check();
    const { download, file } = await saveDownload(() => dialog.getByRole('button', { name: 'Export' }).click());
    expect(download.suggestedFilename()).toMatch(/^stepwise-tasks-tasks-under-test-\d{4}-\d{2}-\d{2}\.md$/);
    const tree = parseGfm(fs.readFileSync(file, 'utf8'));
    expect(listItems(tree).map(({ checked, title, notes }) => ({ checked, title, notes }))).toEqual(EXPECTED_ITEMS);
    expect(listItems(tree)[1].description).toEqual(['User and Task.']);
    await dialog.waitFor({ state: 'hidden' });
  });

  it('downloads every list of every conversation as CSV', async () => {
    await taskMenu('Export tasks…');
    const dialog = page().getByRole('dialog', { name: 'Export tasks' });
    await dialog.getByRole('radio', { name: 'CSV' }).check();
    await dialog.getByRole('radio', { name: 'Every conversation' }).check();
    const { download, file } = await saveDownload(() => dialog.getByRole('button', { name: 'Export' }).click());
    expect(download.suggestedFilename()).toMatch(/^stepwise-tasks-all-.*\.csv$/);
    const rows = parseCsv(fs.readFileSync(file, 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.id, r.title, r.status, r.blocked_by])).toEqual([
      ['1', 'Set up project structure', 'completed', ''],
      ['2', 'Create data models', 'in_progress', ''],
      ['3', '[x] Not done yet', 'pending', ''],
      ['4', 'Write tests', 'pending', '2'],
    ]);
  });
});

describe('conversation export and import in the browser', () => {
  it('exports the conversation as JSON and imports it through the file picker', async () => {
    const sidebar = page().getByRole('complementary', { name: 'Conversations' });
    await sidebar.getByRole('button', { name: `Actions for ${TITLE}` }).click();
    await page()
      .getByRole('menu', { name: `Actions for ${TITLE}` })
      .getByRole('menuitem', { name: 'Export conversation…' })
      .click();
    const dialog = page().getByRole('dialog', { name: 'Export conversation' });
    await dialog.getByRole('radio', { name: /JSON/ }).check();
    const { file } = await saveDownload(() => dialog.getByRole('button', { name: 'Export' }).click());
    const exported = ConversationExport.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(exported.taskLists[0].tasks.map((t) => t.title)).toEqual(EXPECTED_ITEMS.map((i) => i.title));

    await sidebar.getByRole('button', { name: 'More actions' }).click();
    const [chooser] = await Promise.all([
      page().waitForEvent('filechooser'),
      page()
        .getByRole('menu', { name: 'More actions' })
        .getByRole('menuitem', { name: 'Import conversation…' })
        .click(),
    ]);
    await chooser.setFiles(file);
    await page().getByText(`Imported “${TITLE}”`).waitFor({ state: 'visible' });
    await expect
      .poll(() =>
        page()
          .getByRole('list', { name: 'Saved conversations' })
          .getByRole('link', { name: new RegExp(TITLE) })
          .count(),
      )
      .toBe(2);
    // The page opened the imported conversation; its task header shows the same list.
    await expect
      .poll(() => tasksRegion().getByRole('list', { name: 'Task list' }).getByRole('listitem').count())
      .toBe(4);
  });

  it('says why a file that is not an export cannot be imported', async () => {
    const notes = path.join(downloads, 'notes.json');
    fs.writeFileSync(notes, '{"hello": "world"}');
    const sidebar = page().getByRole('complementary', { name: 'Conversations' });
    await sidebar.getByRole('button', { name: 'More actions' }).click();
    const [chooser] = await Promise.all([
      page().waitForEvent('filechooser'),
      page()
        .getByRole('menu', { name: 'More actions' })
        .getByRole('menuitem', { name: 'Import conversation…' })
        .click(),
    ]);
    await chooser.setFiles(notes);
    await page()
      .getByText(/This file is not a Stepwise conversation export: it has no "format": "stepwise.conversation" field/)
      .waitFor({ state: 'visible' });
    expect(
      await page()
        .getByRole('list', { name: 'Saved conversations' })
        .getByRole('link', { name: new RegExp(TITLE) })
        .count(),
    ).toBe(2);
  });
});
