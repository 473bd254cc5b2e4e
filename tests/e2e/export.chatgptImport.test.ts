// Importing a ChatGPT conversations.json in Debian Chromium against the browser host:
// through "More actions" → "Import conversation…" and the browser's file picker, the toast
// gives the counts and the skip reason, and the conversations appear in the sidebar.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeDataDir, OFFLINE_BASE_URL } from './support/app';
import { appPerFile } from './support/appPerFile';

const FIXTURE = path.join(__dirname, '../fixtures/chatgpt-conversations.json');

let dataDir: string;
const page = (): Page => app.page;

const { app } = appPerFile({
  name: 'chatgpt-import',
  env: { OPENAI_BASE_URL: OFFLINE_BASE_URL },
  prepare: () => {
    dataDir = makeDataDir();
    return { dataDir };
  },
  afterClose: () => fs.rmSync(dataDir, { recursive: true, force: true }),
});

describe('ChatGPT import in the browser', () => {
  it('imports conversations.json through the file picker, with a summary toast and the conversations in the sidebar', async () => {
    const sidebar = page().getByRole('complementary', { name: 'Conversations' });
    await sidebar.getByRole('button', { name: 'More actions' }).click();
    const [chooser] = await Promise.all([
      page().waitForEvent('filechooser'),
      page()
        .getByRole('menu', { name: 'More actions' })
        .getByRole('menuitem', { name: 'Import conversation…' })
        .click(),
    ]);
    await chooser.setFiles(FIXTURE);
    await page()
      .getByText(/^Imported 2 conversations \(1 skipped: “Broken chat”: it is not a readable ChatGPT conversation/)
      .waitFor({ state: 'visible' });
    const links = page().getByRole('list', { name: 'Saved conversations' }).getByRole('link');
    // ChatGPT's order: the most recently active first.
    await expect
      .poll(async () =>
        (await links.allTextContents()).map((t) =>
          t.includes('Trip to Lisbon') ? 'Lisbon' : t.includes('Sourdough starter') ? 'Sourdough' : t,
        ),
      )
      .toEqual(['Lisbon', 'Sourdough']);
    // The newest one is open, showing the branch ChatGPT showed, with a note for the image.
    const main = page().getByRole('main');
    await main.getByText('That is tram 28.').waitFor({ state: 'visible' });
    await main.getByText('[image not imported]').waitFor({ state: 'visible' });
    expect(await main.getByText('An answer that was regenerated away.').count()).toBe(0);
    // The other branches are versions: the regenerated-away answer is version 1 of that reply.
    const reply = main.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'Day 1: Alfama' });
    await reply
      .getByRole('group', { name: 'Version 2 of 2' })
      .getByRole('button', { name: 'Previous version' })
      .click();
    await main.getByText('An answer that was regenerated away.').waitFor({ state: 'visible' });
    expect(await main.getByText('That is tram 28.').count()).toBe(0);
  });
});
