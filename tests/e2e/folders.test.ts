// Folders in Debian Chromium against the browser host: make one, move conversations in
// with "Move to folder…" (keyboard) and by dragging, collapse it, find a conversation in
// it by search, and everything survives a restart of the host on the same data directory.
// Then the folder's export, rename, and delete (its conversations stay).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { ConversationsExport } from '../../src/shared/exportFormat';
import { makeDataDir } from './support/app';
import { appPerFile } from './support/appPerFile';
import { violations } from './support/axe';

let root: string;
const page = (): Page => app.page;
const list = () => page().getByRole('list', { name: 'Saved conversations' });
const folderToggle = (name: string) => list().getByRole('button', { name: new RegExp(`^Folder ${name} \\d`) });
const link = (title: string) => list().getByRole('link', { name: new RegExp(`^${title}`) });

/** The sidebar's rows as text, top to bottom: `[Trip]` for a folder, `  Title` under one. */
async function sidebarRows(): Promise<string[]> {
  return list()
    .locator(':scope > li')
    .evaluateAll((items) =>
      items
        .map((li) => ({ top: new DOMMatrix(getComputedStyle(li).transform).m42, li }))
        .sort((a, b) => a.top - b.top)
        .map(({ li }) => {
          const folder = li.querySelector('.folder-name');
          if (folder) return `[${folder.textContent}]`;
          return `${li.classList.contains('in-folder') ? '  ' : ''}${li.querySelector('.conversation-title')?.textContent ?? '?'}`;
        }),
    );
}

async function menu(label: string, item: string) {
  await page().getByRole('button', { name: label, exact: true }).click();
  await page().getByRole('menu', { name: label }).getByRole('menuitem', { name: item }).click();
}

const { app } = appPerFile({
  name: 'folders',
  prepare: async () => {
    root = makeDataDir();
    const dataDir = path.join(root, 'data');
    const core = createNodeCore({ dataDir, env: {} });
    const seeded = [
      ['Groceries', 'Milk and eggs'],
      ['Hotels', 'Hotels near Alfama'],
      ['Flights', 'Flights to Lisbon in May'],
    ] as const;
    for (const [index, [title, text]] of seeded.entries()) {
      const { id } = core.conversations.create(title);
      core.messages.insert({ conversationId: id, role: 'user', content: text });
      // One minute apart, the newest last: the order within a folder and below is by activity.
      core.db
        .prepare('UPDATE conversations SET updated_at = ? WHERE id = ?')
        .run(Date.now() - (seeded.length - index) * 60_000, id);
    }
    await core.close();
    return { dataDir };
  },
  afterClose: () => fs.rmSync(root, { recursive: true, force: true }),
});

describe('folders', () => {
  it('makes a folder and moves a conversation into it with "Move to folder…", by keyboard', async () => {
    await page().getByRole('button', { name: 'New folder' }).click();
    const dialog = page().getByRole('dialog', { name: 'New folder' });
    await dialog.getByRole('textbox', { name: 'Folder name' }).fill('Trip');
    await page().keyboard.press('Enter');
    await folderToggle('Trip').waitFor();
    expect(await folderToggle('Trip').getAttribute('aria-expanded')).toBe('true');

    // The conversation's menu and the dialog, worked by keyboard only.
    await link('Flights').focus();
    await page().keyboard.press('Tab');
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Actions for Flights');
    await page().keyboard.press('Enter');
    const item = page().getByRole('menuitem', { name: 'Move to folder…' });
    await item.waitFor();
    await item.focus();
    await page().keyboard.press('Enter');
    const move = page().getByRole('dialog', { name: 'Move to folder' });
    await move.getByRole('radio', { name: 'Trip' }).waitFor();
    expect(await violations(page())).toEqual([]);
    await move.getByRole('radio', { name: 'Trip' }).check();
    await move.getByRole('button', { name: 'Move' }).press('Enter');
    await move.waitFor({ state: 'detached' });
    await expect.poll(sidebarRows).toEqual(['[Trip]', '  Flights', 'Hotels', 'Groceries']);
    await list().getByRole('button', { name: 'Folder Trip 1 conversation', exact: true }).waitFor();
  });

  it('moves a conversation by dragging it onto the folder, and out again onto the list', async () => {
    await link('Hotels').dragTo(folderToggle('Trip'));
    await expect.poll(sidebarRows).toEqual(['[Trip]', '  Flights', '  Hotels', 'Groceries']);
    await link('Hotels').dragTo(link('Groceries'));
    await expect.poll(sidebarRows).toEqual(['[Trip]', '  Flights', 'Hotels', 'Groceries']);
    await link('Hotels').dragTo(folderToggle('Trip'));
    await expect.poll(sidebarRows).toEqual(['[Trip]', '  Flights', '  Hotels', 'Groceries']);
  });

  it('keeps pinned conversations above every folder', async () => {
    await menu('Actions for Flights', 'Pin');
    await expect.poll(sidebarRows).toEqual(['Flights', '[Trip]', '  Hotels', 'Groceries']);
    await menu('Actions for Flights', 'Unpin');
    await expect.poll(sidebarRows).toEqual(['[Trip]', '  Flights', '  Hotels', 'Groceries']);
  });

  it('collapses a folder, and search still finds what is in it', async () => {
    await folderToggle('Trip').click();
    await expect.poll(() => folderToggle('Trip').getAttribute('aria-expanded')).toBe('false');
    await expect.poll(sidebarRows).toEqual(['[Trip]', 'Groceries']);
    expect(await violations(page())).toEqual([]);

    const search = page().getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('Alfama');
    await expect.poll(() => list().getByRole('link').allTextContents()).toEqual([expect.stringMatching(/^Hotels/)]);
    await link('Hotels').click();
    await page().getByRole('heading', { name: 'Hotels' }).waitFor();
    await search.fill('');
    await expect.poll(sidebarRows).toEqual(['[Trip]', 'Groceries']);
  });

  it('folders persist across a restart', async () => {
    await app.restart();
    await expect.poll(sidebarRows).toEqual(['[Trip]', 'Groceries']);
    expect(await folderToggle('Trip').getAttribute('aria-expanded')).toBe('false');
    await folderToggle('Trip').click();
    await expect.poll(sidebarRows).toEqual(['[Trip]', '  Flights', '  Hotels', 'Groceries']);
  });

  it('exports the whole folder as JSON', async () => {
    await menu('Actions for folder Trip', 'Export folder…');
    const dialog = page().getByRole('dialog', { name: 'Export folder' });
    expect(await dialog.innerText()).toContain('“Trip”: all 2 conversations in one file.');
    await dialog.getByRole('radio', { name: /JSON/ }).check();
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^stepwise-folder-trip-\d{4}-\d{2}-\d{2}\.json$/);
    const file = path.join(root, download.suggestedFilename());
    await download.saveAs(file);
    const exported = ConversationsExport.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(exported.folder).toBe('Trip');
    expect(
      exported.conversations.map((c) => [c.conversation.title, c.conversation.folder, c.messages[0]?.content]),
    ).toEqual([
      ['Flights', 'Trip', 'Flights to Lisbon in May'],
      ['Hotels', 'Trip', 'Hotels near Alfama'],
    ]);
  });

  it('renames the folder, and deleting it keeps its conversations', async () => {
    await menu('Actions for folder Trip', 'Rename folder…');
    const rename = page().getByRole('dialog', { name: 'Rename folder' });
    await rename.getByRole('textbox', { name: 'Folder name' }).fill('Lisbon');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(sidebarRows).toEqual(['[Lisbon]', '  Flights', '  Hotels', 'Groceries']);

    await menu('Actions for folder Lisbon', 'Delete folder…');
    const confirm = page().getByRole('dialog', { name: 'Delete folder?' });
    expect(await confirm.textContent()).toContain('Its 2 conversations stay');
    await confirm.getByRole('button', { name: 'Delete folder' }).click();
    await expect.poll(async () => (await sidebarRows()).some((row) => row.startsWith('['))).toBe(false);
    const rows = await sidebarRows();
    expect(rows.some((row) => row.startsWith('['))).toBe(false);
    expect([...rows].sort()).toEqual(['Flights', 'Groceries', 'Hotels']);
  });

  it('moves a conversation into a folder it makes on the way', async () => {
    await menu('Actions for Groceries', 'Move to folder…');
    const move = page().getByRole('dialog', { name: 'Move to folder' });
    await move.getByRole('radio', { name: 'A new folder' }).check();
    await move.getByRole('textbox', { name: 'New folder name' }).fill('Errands');
    await move.getByRole('button', { name: 'Move' }).click();
    await expect.poll(sidebarRows).toEqual(['[Errands]', '  Groceries', 'Flights', 'Hotels']);
  });
});
