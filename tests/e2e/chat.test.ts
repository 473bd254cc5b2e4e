// The chat end to end, in Debian Chromium against the browser host pointed at the scripted
// OpenAI-compatible server: a reply streams in and renders (table, highlighted code, copy
// button), the conversation gets its automatic title, a tool call shows as a card, Stop
// (button and Esc) keeps the partial reply, failures show an alert whose Retry works, and
// hostile HTML in a reply stays inert. The tests share one app and run in order.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { times } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

const API_KEY = 'sk-test-e2e-chat';
const TITLE = 'Quarterly sales overview';

const turns = turnQueue({
  // The first conversation's auto-title; any other asks get a title nobody looks for.
  title: (body) => (String(body.messages.at(-1)?.content).includes('sales table') ? TITLE : 'Some other chat'),
});
const dialogs: string[] = [];

const page = (): Page => app.page;
const composer = () => page().getByRole('textbox', { name: 'Message' });
const sendButton = () => page().getByRole('button', { name: 'Send', exact: true });
const stopButton = () => page().getByRole('button', { name: 'Stop', exact: true });
const messages = (name: 'You message' | 'Assistant message') => page().getByRole('article', { name, exact: true });
const lastAssistant = () => messages('Assistant message').last();
const alert = () => page().getByRole('main').getByRole('alert');
const textOf = (locator: Locator) => locator.innerText().catch(() => '');

async function newConversation() {
  await page()
    .getByRole('complementary', { name: 'Conversations' })
    .getByRole('button', { name: 'New conversation', exact: true })
    .click();
  await expect.poll(() => composer().evaluate((el) => el === document.activeElement), { timeout: 5_000 }).toBe(true);
}

async function send(text: string) {
  await composer().fill(text);
  await sendButton().click();
  await expect.poll(() => textOf(messages('You message').last()), { timeout: 5_000 }).toContain(text);
}

/** The turn is over: the composer offers Send again. */
async function idle() {
  await sendButton().waitFor({ timeout: 15_000 });
}

const { app, server } = appPerFile({
  name: 'chat',
  server: { script: turns.script },
  env: { OPENAI_API_KEY: API_KEY },
  ready: async () => {
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    page().on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  },
});

const REPLY = [
  'Here is the quarterly summary you asked for.',
  '',
  '| Region | Q1 | Q2 |',
  '| --- | ---: | ---: |',
  '| North | 120 | 135 |',
  '| South | 98 | 110 |',
  '',
  'And the code that computes it:',
  '',
  '```ts',
  'export function total(values: number[]): number {',
  '  return values.reduce((sum, v) => sum + v, 0);',
  '}',
  '```',
  '',
  'That is the end of the summary.',
].join('\n');
const CODE = 'export function total(values: number[]): number {\n  return values.reduce((sum, v) => sum + v, 0);\n}';

describe('chat in the browser', () => {
  it('streams a reply that renders a table and a highlighted code block with a copy button', async () => {
    // About 80 chunks 40 ms apart: the reply takes seconds, so partial text is observable.
    turns.push({ text: REPLY, chunkSize: 4, chunkDelayMs: 40 });
    await newConversation();
    await send('Show me the sales table');

    // Part of the reply is on screen while the rest is still coming, and Stop is offered.
    await expect
      .poll(
        async () => {
          const text = await textOf(lastAssistant());
          return text.includes('quarterly summary') && !text.includes('end of the summary');
        },
        { interval: 50, timeout: 10_000 },
      )
      .toBe(true);
    expect(await stopButton().isVisible()).toBe(true);

    await lastAssistant().getByText('That is the end of the summary.').waitFor({ timeout: 15_000 });
    await idle();
    const reply = lastAssistant();
    const table = reply.getByRole('table');
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Region', 'Q1', 'Q2']);
    expect(await table.getByRole('row').nth(1).getByRole('cell').allInnerTexts()).toEqual(['North', '120', '135']);
    expect(await table.getByRole('row').count()).toBe(3);

    const code = reply.locator('pre code');
    expect(await code.getAttribute('class')).toMatch(/\bhljs\b.*\blanguage-ts\b|\blanguage-ts\b.*\bhljs\b/);
    // Highlighted: keywords are wrapped in their own spans, the text itself unchanged.
    expect(await code.locator('.hljs-keyword').allInnerTexts()).toEqual(
      expect.arrayContaining(['export', 'function', 'return']),
    );
    expect((await code.innerText()).trimEnd()).toBe(CODE);
    await reply.getByRole('button', { name: 'Copy code' }).click();
    await reply.getByRole('button', { name: 'Copied' }).waitFor();
    expect((await page().evaluate(() => navigator.clipboard.readText())).trimEnd()).toBe(CODE);
    expect(await reply.locator('.status-tag').count()).toBe(0);
  });

  it('gives the conversation its automatic title in the sidebar', async () => {
    const link = page().getByRole('list', { name: 'Saved conversations' }).getByRole('link', { name: TITLE });
    await link.waitFor({ timeout: 10_000 });
    await expect
      .poll(() => page().getByRole('main').getByRole('heading', { level: 1 }).innerText(), { timeout: 5_000 })
      .toBe(TITLE);
    // One non-streaming request asked for it, with the exchange in it.
    const titleRequests = server.chatRequests().filter((r) => !r.body.stream);
    expect(titleRequests).toHaveLength(1);
    expect(String(titleRequests[0].body.messages.at(-1)?.content)).toContain('User: Show me the sales table');
  });

  it('shows a tool call as a card with its arguments and result', async () => {
    turns.push(
      { toolCalls: [{ name: 'get_current_time', arguments: ['{"timeZ', 'one": "UTC"}'] }] },
      { text: 'It is noon in UTC.' },
    );
    await send('What time is it?');
    // The summary's accessible name comes from its text (partly screen-reader-only).
    const card = page().locator('summary').filter({ hasText: 'Tool call get_current_time, done' });
    await card.waitFor({ timeout: 15_000 });
    await lastAssistant().getByText('It is noon in UTC.').waitFor();
    await idle();
    await card.click();
    const details = page().locator('details', { has: card });
    expect(await details.evaluate((el: HTMLDetailsElement) => el.open)).toBe(true);
    // The body is drawn on the toggle event, a task after the click: wait for both sections.
    await details.locator('pre').nth(1).waitFor();
    const sections = await details.locator('pre').allInnerTexts();
    expect(JSON.parse(sections[0])).toEqual({ timeZone: 'UTC' });
    expect(JSON.parse(sections[1])).toMatchObject({ timeZone: 'UTC', iso: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    // What the model got back is what the card shows.
    const toolMessage = server
      .streamRequests()
      .at(-1)!
      .body.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(toolMessage?.content))).toEqual(JSON.parse(sections[1]));
  });

  for (const how of ['the Stop button', 'Esc'] as const) {
    it(`stops mid-stream with ${how}; the partial reply stays, tagged Stopped`, async () => {
      const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
      turns.push({ text: words, chunkSize: 6, chunkDelayMs: 30 });
      await send(`Tell me a long story (${how})`);
      await expect
        .poll(async () => (await textOf(lastAssistant())).includes('word5 '), { interval: 50, timeout: 10_000 })
        .toBe(true);
      if (how === 'Esc') await page().keyboard.press('Escape');
      else await stopButton().click();

      await idle();
      const reply = lastAssistant();
      await reply.getByText('Stopped', { exact: true }).waitFor();
      const shown = (await reply.locator('.message-body').innerText()).trim();
      expect(shown.startsWith('word0 word1 word2')).toBe(true);
      expect(shown).not.toContain('word299');

      // The partial reply is part of the conversation: the next request carries it as sent.
      turns.push({ text: 'Picking up where I stopped.' });
      await send(`go on after ${how}`);
      await lastAssistant().getByText('Picking up where I stopped.').waitFor();
      await idle();
      const history = server.streamRequests().at(-1)!.body.messages;
      const partial = history.findLast((m) => m.role === 'assistant');
      expect(String(partial?.content).trim()).toBe(shown);
      expect(history.at(-1)).toMatchObject({ role: 'user', content: `go on after ${how}` });
    });
  }

  it('shows a server error after the retries, and Retry answers from the next turn', async () => {
    await newConversation();
    const before = server.streamRequests().length;
    turns.push(...times(3, { status: 500 }), { text: 'Recovered after the outage.' });
    await send('Are you there?');
    await alert().waitFor({ timeout: 15_000 });
    expect(await alert().innerText()).toMatch(/server error \(500\), even after retrying/);
    // One request and the SDK's two retries.
    expect(server.streamRequests().length - before).toBe(3);
    await idle();
    expect(await messages('You message').filter({ hasText: 'Are you there?' }).count()).toBe(1);

    await alert().getByRole('button', { name: 'Retry' }).click();
    await lastAssistant().getByText('Recovered after the outage.').waitFor({ timeout: 15_000 });
    await alert().waitFor({ state: 'detached' });
    expect(await messages('You message').filter({ hasText: 'Are you there?' }).count()).toBe(1);
    expect(server.streamRequests().at(-1)!.body.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'Are you there?',
    });
  });

  it('says a rejected key plainly, offers Settings, and never shows the key', async () => {
    turns.push({ status: 401 });
    await send('Try with a bad key');
    await alert().waitFor({ timeout: 15_000 });
    expect(await alert().innerText()).toContain('The API key was rejected');
    expect(await alert().getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await page().locator('body').innerText()).not.toContain(API_KEY);
    await alert().getByRole('button', { name: 'Open Settings' }).click();
    await page().getByRole('region', { name: 'Settings' }).waitFor();
    expect(await page().locator('body').innerText()).not.toContain(API_KEY);
    await page().getByRole('button', { name: 'Close settings' }).click();
  });

  it('renders raw HTML, scripts and javascript: links in a reply inert', async () => {
    const hostile = [
      'Before the payloads.',
      '',
      '<img src=x onerror="window.__pwned = 1; alert(1)">',
      '',
      '<script>window.__pwned = 2; alert(2)</script>',
      '',
      '<a href="javascript:window.__pwned = 3">raw anchor</a>',
      '',
      '[click me](javascript:window.__pwned=4;alert(4))',
      '',
      '![tracker](javascript:window.__pwned=5)',
      '',
      '<iframe src="javascript:parent.__pwned = 6"></iframe>',
      '',
      '```html',
      '<img src=x onerror=alert(7)>',
      '```',
      '',
      'After the payloads.',
    ].join('\n');
    await page().getByRole('list', { name: 'Saved conversations' }).getByRole('link', { name: TITLE }).click();
    turns.push({ text: hostile });
    await send('Show me some HTML');
    const reply = lastAssistant();
    await reply.getByText('After the payloads.').waitFor({ timeout: 15_000 });
    await idle();
    const link = reply.getByText('click me', { exact: true });
    await link.click();
    // Give any handler that did get attached every chance to fire.
    await page().evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));

    expect(dialogs).toEqual([]);
    expect(await page().evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    const body = reply.locator('.message-body');
    expect(await body.locator('img, script, iframe').count()).toBe(0);
    expect(await body.locator('a').count()).toBe(0);
    expect(await link.evaluate((el) => el.closest('a'))).toBeNull();
    // The Markdown image became text, and HTML inside a code block is shown as code.
    expect(await body.innerText()).toContain('[image: tracker]');
    expect((await body.locator('pre code').innerText()).trimEnd()).toBe('<img src=x onerror=alert(7)>');
    expect(
      await page().evaluate(
        () => document.querySelectorAll('img[onerror], script:not([src]):not([type="module"])').length,
      ),
    ).toBe(0);
    expect(page().url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });
});
