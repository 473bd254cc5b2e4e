// Message versions end to end, in Debian Chromium against the browser host and the
// scripted server: editing an earlier message makes a second version whose branch the
// chat follows, "‹ 1/2 ›" switches between the two (the later messages follow), and
// Regenerate keeps the old reply as version 1/2. The actions show on keyboard focus,
// and the page stays axe-clean. The tests share one app and run in order.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';
import { violations } from './support/axe';
import { turnQueue } from './support/chatScript';

const turns = turnQueue({ title: () => 'Versions' });
const bodies: ChatBody[] = [];
const reply = (text: string) => (body: ChatBody) => {
  bodies.push(body);
  return { text };
};

const page = (): Page => app.page;
const composer = () => page().getByRole('textbox', { name: 'Message' });
const sendButton = () => page().getByRole('button', { name: 'Send', exact: true });
const articles = () => page().getByRole('log', { name: 'Messages' }).getByRole('article');
const textOf = (locator: Locator) => locator.innerText().catch(() => '');
/** The transcript as [author, first line of text] pairs. */
const transcript = () =>
  articles().evaluateAll((nodes) =>
    nodes.map(
      (node) => `${node.getAttribute('aria-label')}: ${node.querySelector('.message-body')?.textContent?.trim() ?? ''}`,
    ),
  );
const idle = () => sendButton().waitFor({ timeout: 15_000 });

async function send(text: string) {
  await composer().fill(text);
  await sendButton().click();
  await expect.poll(() => textOf(articles().last()), { timeout: 10_000 }).not.toBe('');
  await idle();
}

const { app } = appPerFile({
  name: 'versions',
  server: { script: turns.script },
  env: { OPENAI_API_KEY: 'sk-test-versions' },
});

describe('message versions', () => {
  it('two versions of an edited message can be switched, and the later messages follow', async () => {
    await page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'New conversation', exact: true })
      .click();
    turns.push(reply('Answer one'), reply('Answer two'));
    await send('First question');
    await expect.poll(transcript).toEqual(['You message: First question', 'Assistant message: Answer one']);
    await send('Second question');
    await expect.poll(transcript).toHaveLength(4);

    // Edit the first message: it opens in place, and sending makes version 2.
    turns.push(reply('Answer to the edit'));
    const first = articles().first();
    await first.hover();
    await first.getByRole('button', { name: 'Edit message' }).click();
    await first.getByRole('textbox', { name: 'Edit message' }).fill('First question, edited');
    await first.getByRole('button', { name: 'Save and send' }).click();
    await expect
      .poll(transcript, { timeout: 10_000 })
      .toEqual(['You message: First question, edited', 'Assistant message: Answer to the edit']);
    await idle();
    // The model saw the new branch only.
    expect(bodies.at(-1)!.messages.slice(1)).toEqual([{ role: 'user', content: 'First question, edited' }]);
    const versions = articles().first().getByRole('group', { name: 'Version 2 of 2' });
    await expect.poll(() => textOf(versions)).toContain('2/2');

    // Version 1 brings back its own later messages.
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await expect
      .poll(transcript)
      .toEqual([
        'You message: First question',
        'Assistant message: Answer one',
        'You message: Second question',
        'Assistant message: Answer two',
      ]);
    const older = articles().first().getByRole('group', { name: 'Version 1 of 2' });
    await expect.poll(() => textOf(older)).toContain('1/2');
    // The keyboard focus stays on the switch.
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Next version');

    await page().keyboard.press('Enter');
    await expect
      .poll(transcript)
      .toEqual(['You message: First question, edited', 'Assistant message: Answer to the edit']);

    // The choice is stored: a fresh page shows the same branch.
    const again = await app.openPage();
    await again.goto(page().url());
    // A fresh page loads, connects and lists before it shows anything: wait for the reply itself.
    await again.getByRole('log', { name: 'Messages' }).getByRole('article').getByText('Answer to the edit').waitFor();
    expect(
      (await again.getByRole('log', { name: 'Messages' }).getByRole('article').allInnerTexts()).join('\n'),
    ).not.toContain('Answer one');
    await again.close();
  });

  it('regenerate keeps the old reply as version 1/2', async () => {
    turns.push(reply('A second answer'));
    const last = articles().last();
    await last.hover();
    await last.getByRole('button', { name: 'Regenerate reply' }).click();
    await expect
      .poll(transcript, { timeout: 10_000 })
      .toEqual(['You message: First question, edited', 'Assistant message: A second answer']);
    await idle();
    const switcher = articles().last().getByRole('group', { name: 'Version 2 of 2' });
    await switcher.getByRole('button', { name: 'Previous version' }).click();
    await expect
      .poll(transcript)
      .toEqual(['You message: First question, edited', 'Assistant message: Answer to the edit']);
    await expect.poll(() => textOf(articles().last().getByRole('group', { name: 'Version 1 of 2' }))).toContain('1/2');
  });

  it('shows the actions on keyboard focus, with names, and stays axe-clean', async () => {
    const actions = articles().first().locator('.message-actions');
    await page().mouse.move(0, 0);
    await articles().first().getByRole('button', { name: 'Copy your message' }).focus();
    await expect.poll(() => actions.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await expect(articles().first().getByRole('button', { name: 'Edit message' }).count()).resolves.toBe(1);
    await expect(articles().last().getByRole('button', { name: 'Copy assistant message' }).count()).resolves.toBe(1);
    await expect(articles().last().getByRole('button', { name: 'Regenerate reply' }).count()).resolves.toBe(1);
    expect(await violations(page())).toEqual([]);
  });
});
