// New conversations and unsent drafts, in Debian Chromium against the browser host with
// the scripted model (no delay). A new conversation is a draft until its first send, so
// what is typed right after "New conversation" (or a switch in the sidebar) lands in that
// conversation's composer and is sent there exactly once; every conversation keeps its own
// draft across switches, reloads and restarts; nothing empty is ever stored; toasts keep
// clear of the composer. The tests share one app and run in order.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX } from '../../src/shared/domain';
import type { ChatBody } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';

const lastUser = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
const firstUser = (body: ChatBody) => String(body.messages.find((m) => m.role === 'user')?.content ?? '');
const userMessages = (body: ChatBody) => body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
/** The auto-title request quotes the exchange as "User: …". */
const titledMessage = (body: ChatBody) => /^User: (.*)$/m.exec(String(body.messages.at(-1)?.content))?.[1] ?? '';
/** Titles name the conversation's first message, so the test can find each one. */
const titleFor = (first: string) => `About ${first}`;

const page = (): Page => app.page;
const sidebar = () => page().getByRole('complementary', { name: 'Conversations' });
const newButton = () => sidebar().getByRole('button', { name: 'New conversation', exact: true });
const item = (title: string) =>
  page()
    .getByRole('list', { name: 'Saved conversations' })
    .getByRole('link', { name: new RegExp(`^${title}(\\s|$)`) });
const composer = () => page().getByRole('textbox', { name: 'Message' });
const heading = () => page().getByRole('main').getByRole('heading', { level: 1 });
const sendButton = () => page().getByRole('button', { name: 'Send', exact: true });
const mine = () => page().getByRole('article', { name: 'You message' }).locator('.user-text');

/** What the database holds, read beside the running host (WAL allows a reader). */
function stored<T>(sql: string): T[] {
  const db = new Database(path.join(app.dataDir, 'stepwise.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
const storedTitles = () =>
  stored<{ title: string }>('SELECT title FROM conversations WHERE parent_id IS NULL').map((r) => r.title);

async function open(title: string) {
  await item(title).click();
  await expect.poll(() => heading().textContent(), { timeout: 10_000 }).toBe(title);
}

function box(locator: Locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  });
}

const { app, server } = appPerFile({
  name: 'drafts',
  server: {
    script: (request) =>
      request.body.stream
        ? { text: `Reply to ${lastUser(request.body)}` }
        : { text: titleFor(titledMessage(request.body)) },
  },
});

describe('new conversations and drafts', () => {
  it('sends what is typed right after "New conversation" there, exactly once (20 rounds)', async () => {
    const sent: Array<{ text: string; conversation: string }> = [];
    for (let round = 1; round <= 20; round++) {
      const text = `new ${round}`;
      // No wait between the click and the typing: that is the point.
      await newButton().click();
      await composer().fill(text);
      await composer().press('Enter');
      sent.push({ text, conversation: text });
      if (round % 2 === 0) {
        // A send in an existing conversation, chosen in the sidebar and typed into at once.
        const target = `new ${round - 1}`;
        const reply = `existing ${round}`;
        // The conversation just sent joins the top of the list and shifts every row below it:
        // click only once it is listed (with its title), or the click may land on the row that
        // moved under the pointer.
        await item(titleFor(text)).waitFor({ timeout: 15_000 });
        await item(titleFor(target)).click();
        await composer().fill(reply);
        // Enter sends only while no reply runs there (a user sees Stop instead of Send).
        await sendButton().waitFor({ timeout: 10_000 });
        await composer().press('Enter');
        sent.push({ text: reply, conversation: target });
      }
    }

    await expect.poll(() => server.streamRequests().length, { timeout: 30_000 }).toBe(sent.length);
    const requests = server.streamRequests().map((r) => r.body);
    for (const { text, conversation } of sent) {
      // The model got the message exactly once, as the newest message of the right conversation.
      const asking = requests.filter((body) => lastUser(body) === text);
      expect(asking, text).toHaveLength(1);
      expect(firstUser(asking[0]), text).toBe(conversation);
    }
    // A new conversation's first request carries only its own message: nothing of another.
    for (const body of requests.filter((b) => lastUser(b).startsWith('new ')))
      expect(userMessages(body)).toHaveLength(1);

    // Stored where they belong: each conversation holds exactly its own messages, in order.
    const byConversation = new Map<string, string[]>();
    for (const row of stored<{ first: string; content: string }>(
      `SELECT (SELECT content FROM messages f WHERE f.conversation_id = m.conversation_id ORDER BY f.id LIMIT 1) AS first, m.content
       FROM messages m WHERE m.role = 'user' ORDER BY m.id`,
    )) {
      byConversation.set(row.first, [...(byConversation.get(row.first) ?? []), row.content]);
    }
    const expected = new Map<string, string[]>();
    for (const s of sent) expected.set(s.conversation, [...(expected.get(s.conversation) ?? []), s.text]);
    expect(byConversation).toEqual(expected);
    expect(storedTitles()).toHaveLength(20);

    // No composer kept the text it sent.
    for (let round = 1; round <= 20; round++) {
      await open(titleFor(`new ${round}`));
      expect(await composer().inputValue(), `composer of new ${round}`).toBe('');
    }
    await newButton().click();
    expect(await composer().inputValue()).toBe('');
  });

  it('keeps each conversation’s draft across switches, a reload and a restart', async () => {
    await open(titleFor('new 1'));
    await composer().fill('Draft for one');
    await item(titleFor('new 2')).click();
    // Typed with the keyboard right after the switch: it lands in the new view's composer.
    await page().keyboard.type('Draft for two');
    await expect.poll(() => heading().textContent()).toBe(titleFor('new 2'));
    expect(await composer().inputValue()).toBe('Draft for two');

    await item(titleFor('new 1')).click();
    expect(await composer().inputValue()).toBe('Draft for one');
    await item(titleFor('new 2')).click();
    expect(await composer().inputValue()).toBe('Draft for two');

    // A new conversation keeps its draft too: "New conversation" reopens it.
    await newButton().click();
    await page().keyboard.type('Not sent yet');
    await item(titleFor('new 1')).click();
    await newButton().click();
    expect(await composer().inputValue()).toBe('Not sent yet');

    // Reloading right after typing loses nothing.
    await page().keyboard.type(', still');
    await page().reload();
    await expect.poll(() => composer().inputValue(), { timeout: 10_000 }).toBe('Not sent yet, still');
    expect(await heading().textContent()).toBe('New conversation');
    await open(titleFor('new 1'));
    expect(await composer().inputValue()).toBe('Draft for one');
    await open(titleFor('new 2'));
    expect(await composer().inputValue()).toBe('Draft for two');

    // The host's address changes with a restart; the drafts are in the database.
    await app.restart();
    await open(titleFor('new 2'));
    expect(await composer().inputValue()).toBe('Draft for two');
    await open(titleFor('new 1'));
    expect(await composer().inputValue()).toBe('Draft for one');
    await newButton().click();
    expect(await composer().inputValue()).toBe('Not sent yet, still');

    // Sending clears that draft for good, and no one else's.
    await composer().press('Enter');
    await expect.poll(() => heading().textContent(), { timeout: 10_000 }).toBe(titleFor('Not sent yet, still'));
    await expect.poll(() => mine().allInnerTexts()).toEqual(['Not sent yet, still']);
    expect(await composer().inputValue()).toBe('');
    await page().reload();
    await expect.poll(() => mine().allInnerTexts(), { timeout: 10_000 }).toEqual(['Not sent yet, still']);
    expect(await composer().inputValue()).toBe('');
    await open(titleFor('new 1'));
    expect(await composer().inputValue()).toBe('Draft for one');
  });

  it('stores no conversation until its first message is sent', async () => {
    const before = storedTitles().length;
    await newButton().click();
    await open(titleFor('new 3'));
    await page().keyboard.press('Control+N');
    await expect.poll(() => heading().textContent()).toBe('New conversation');
    await page().reload();
    await expect.poll(() => heading().textContent(), { timeout: 10_000 }).toBe('New conversation');
    await open(titleFor('new 4'));
    expect(storedTitles()).toHaveLength(before);
    expect(storedTitles()).not.toContain('New conversation');
    expect(
      await page()
        .getByRole('list', { name: 'Saved conversations' })
        .getByRole('link', { name: 'New conversation' })
        .count(),
    ).toBe(0);
  });

  it('keeps the text and says why when the first send fails', async () => {
    const before = storedTitles().length;
    await newButton().click();
    const tooLong = 'x'.repeat(MESSAGE_MAX + 1);
    await composer().fill(tooLong);
    await composer().press('Enter');
    const toast = page()
      .getByRole('status')
      .filter({ hasText: `at most ${MESSAGE_MAX} characters` });
    await toast.waitFor({ timeout: 10_000 });
    expect((await composer().inputValue()).length).toBe(tooLong.length);
    expect(await heading().textContent()).toBe('New conversation');
    expect(storedTitles()).toHaveLength(before);
    await composer().fill('');
  });

  it('shows toasts above the composer, never over it', async () => {
    await open(titleFor('new 5'));
    // A tall composer: several lines of draft.
    await composer().fill(['one', 'two', 'three', 'four', 'five', 'six'].join('\n'));
    await sidebar()
      .getByRole('button', { name: `Actions for ${titleFor('new 5')}`, exact: true })
      .click();
    await page().getByRole('menuitem', { name: 'Export conversation…' }).click();
    const download = page().waitForEvent('download');
    await page().getByRole('dialog', { name: 'Export conversation' }).getByRole('button', { name: 'Export' }).click();
    await download;
    const toast = page().locator('.toast').filter({ hasText: 'Downloaded' });
    await toast.waitFor();
    const [t, c] = [await box(toast), await box(page().getByRole('form', { name: 'Message composer' }))];
    expect(t.bottom, `toast ${JSON.stringify(t)} overlaps composer ${JSON.stringify(c)}`).toBeLessThanOrEqual(c.top);
    await expect.poll(async () => (await box(sendButton())).top).toBeGreaterThanOrEqual(t.bottom);
  });
});
