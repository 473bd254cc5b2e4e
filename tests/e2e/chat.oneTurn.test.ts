// One agent turn is one reply: a scripted turn of three model responses and four tool
// calls shows exactly one "Assistant" reply, its text parts and step lines in order, with
// one Copy (the text only, on the clipboard) and one Regenerate; a regenerated turn is
// one version switch on that reply.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

const turns = turnQueue({ title: () => 'One turn' });
const page = (): Page => app.page;
const log = () => page().getByRole('log', { name: 'Messages' });
const replies = () => log().getByRole('article', { name: 'Assistant message', exact: true });

const { app } = appPerFile({ name: 'one-turn', server: { script: turns.script } });

describe('one turn, one reply', () => {
  it('three responses and four tool calls are one Assistant reply with one Copy and one Regenerate', async () => {
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    turns.push(
      {
        text: 'Let me look.',
        toolCalls: [
          { id: 'call_a', name: 'lookup_city', arguments: '{"city":"Oslo"}' },
          { id: 'call_b', name: 'lookup_city', arguments: '{"city":"Bergen"}' },
        ],
      },
      {
        text: 'Checking once more.',
        toolCalls: [
          { id: 'call_c', name: 'think', arguments: '{"thought":"Both failed."}' },
          { id: 'call_d', name: 'lookup_city', arguments: '{"city":"Tromsø"}' },
        ],
      },
      { text: 'No city could be looked up.' },
    );
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Look up three cities.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await log().getByText('No city could be looked up.').waitFor({ timeout: 20_000 });
    await page().getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });

    expect(await replies().count()).toBe(1);
    const reply = replies().first();
    // The text parts in order, the four calls as step lines inside the reply.
    const text = await reply.innerText();
    const at = (part: string) => text.indexOf(part);
    expect(at('Let me look.')).toBeGreaterThanOrEqual(0);
    expect(at('Let me look.')).toBeLessThan(at('Checking once more.'));
    expect(at('Checking once more.')).toBeLessThan(at('No city could be looked up.'));
    expect(await reply.locator('details.tool-card').count()).toBe(4);
    // Folded by default.
    expect(await reply.locator('details.tool-card[open]').count()).toBe(0);
    expect(await log().getByRole('button', { name: 'Copy assistant message' }).count()).toBe(1);
    expect(await log().getByRole('button', { name: 'Regenerate reply' }).count()).toBe(1);

    await reply.hover();
    await reply.getByRole('button', { name: 'Copy assistant message' }).click();
    await expect
      .poll(() => page().evaluate(() => navigator.clipboard.readText()))
      .toBe('Let me look.\n\nChecking once more.\n\nNo city could be looked up.');
  });

  it('Regenerate makes a second version of the whole reply, still one reply', async () => {
    turns.push({ text: 'Second try: nothing found.' });
    const reply = replies().first();
    await reply.hover();
    await reply.getByRole('button', { name: 'Regenerate reply' }).click();
    await log().getByText('Second try: nothing found.').waitFor({ timeout: 20_000 });
    await page().getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });
    expect(await replies().count()).toBe(1);
    await replies().first().getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    await replies().first().getByRole('button', { name: 'Previous version' }).click();
    await log().getByText('Checking once more.').waitFor({ timeout: 10_000 });
    expect(await replies().count()).toBe(1);
    expect(await log().getByRole('group', { name: 'Version 1 of 2' }).count()).toBe(1);
  });
});
