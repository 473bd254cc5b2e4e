// "Export conversation…" from the sidebar, the file saved and read back: what the export
// tests (and the plumbing checks of issue 34) read.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

export async function exportConversation(page: Page, title: string, format: 'md' | 'json', dir: string) {
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  await sidebar.getByRole('button', { name: `Actions for ${title}` }).click();
  await page
    .getByRole('menu', { name: `Actions for ${title}` })
    .getByRole('menuitem', { name: 'Export conversation…' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Export conversation' });
  await dialog.getByRole('radio', { name: format === 'md' ? /Markdown/ : /JSON/ }).check();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Export' }).click(),
  ]);
  const file = path.join(dir, `${format}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return fs.readFileSync(file, 'utf8');
}

/** Control words that must never reach an export as text (they were message prefixes once). */
export const PLUMBING_PREFIXES = /PLAN_|NEXT_TODO|\[Stopped at/;

/** The text of each "## You" section of a Markdown export, trimmed. */
export function youSections(markdown: string): string[] {
  return markdown
    .split(/^## /m)
    .slice(1)
    .filter((section) => section.startsWith('You ·'))
    .map((section) => section.slice(section.indexOf('\n') + 1).trim());
}
