// One approval prompt (issue 34): a waiting call is answered on its card; while the card is
// scrolled out of view a one-line banner stands in for it, and its Show scrolls to the card,
// after which the banner goes. The real filesystem MCP server, review off (the subject is
// the call's own approval).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../support/tempDir';
import { filesystem, writeMcpConfig } from '../support/mcpFixtures';
import { makeDataDir } from './support/app';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

let workDir: string;
let dataDir: string;
const turns = turnQueue({ title: () => 'Listing' });
const page = () => app.page;

const { app } = appPerFile({
  name: 'approval-banner',
  server: { script: turns.script },
  prepare: () => {
    workDir = fs.realpathSync(makeTempDir('stepwise-banner-e2e-'));
    dataDir = makeDataDir();
    writeMcpConfig(dataDir, { fs: filesystem(workDir) });
    return { dataDir, planReview: false };
  },
  afterClose: () => {
    if (workDir) removeDir(workDir);
    if (dataDir) removeDir(dataDir);
  },
});

describe('the approval banner', () => {
  it('stands in for a card scrolled out of view, and Show brings the card back', async () => {
    const longText = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} before the listing.`).join('\n\n');
    turns.push(
      {
        text: longText,
        toolCalls: [{ id: 'call_list', name: 'mcp__fs__list_directory', arguments: JSON.stringify({ path: workDir }) }],
      },
      { text: 'Listed the folder.' },
    );
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await page().getByRole('textbox', { name: 'Message' }).fill('List my folder.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();

    const card = page().getByRole('group', { name: 'Approve mcp__fs__list_directory' });
    const banner = page().getByRole('region', { name: 'Question from Assistant' });
    await card.getByRole('button', { name: 'Allow once', exact: true }).waitFor({ timeout: 20_000 });

    const log = page().getByRole('log', { name: 'Messages' });
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await banner.getByRole('button', { name: 'Show' }).waitFor({ timeout: 10_000 });
    // A line, not a second prompt: the one Allow once is the card's.
    expect(await page().getByRole('button', { name: 'Allow once', exact: true }).count()).toBe(1);
    expect(await banner.getByRole('button', { name: 'Allow once' }).count()).toBe(0);

    await banner.getByRole('button', { name: 'Show' }).click();
    await banner.waitFor({ state: 'hidden', timeout: 10_000 });
    await card.getByRole('button', { name: 'Allow once', exact: true }).click();
    await page().getByText('Listed the folder.').waitFor({ timeout: 20_000 });
  });

  it('draws no banner for a card that appears in view, so nothing moves its buttons', async () => {
    turns.push(
      {
        toolCalls: [
          { id: 'call_list2', name: 'mcp__fs__list_directory', arguments: JSON.stringify({ path: workDir }) },
        ],
      },
      { text: 'Listed it again.' },
    );
    // Counts every banner the page adds, however briefly it stays.
    await page().evaluate(() => {
      const seen = { banners: 0 };
      (window as unknown as { bannersSeen: typeof seen }).bannersSeen = seen;
      const banner = '[aria-label^="Question from"]';
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof HTMLElement && (node.matches(banner) || node.querySelector(banner))) seen.banners++;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page().getByRole('textbox', { name: 'Message' }).fill('List it again.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    const card = page().getByRole('group', { name: 'Approve mcp__fs__list_directory' });
    await card.getByRole('button', { name: 'Allow once', exact: true }).click({ timeout: 20_000 });
    await page().getByText('Listed it again.').waitFor({ timeout: 20_000 });
    expect(
      await page().evaluate(() => (window as unknown as { bannersSeen: { banners: number } }).bannersSeen.banners),
    ).toBe(0);
  });
});
