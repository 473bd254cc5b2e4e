// Autopilot end to end in Chromium: switch it on, watch it carry the model through the
// task list with automatic messages and the "Continuing:" line, pause at the step cap,
// and go on with "Continue". The scripted server plays the model and the assessor.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { autopilotAppPerFile } from './support/appPerFile';
import { plan, TITLE, verdict } from '../support/autopilotServer';
import { ConversationExport } from '../../src/shared/exportFormat';
import { makeTempDir, removeDir } from '../support/tempDir';
import { exportConversation, PLUMBING_PREFIXES, youSections } from './support/exportConversation';

const SHOTS = path.join('/tmp', 'stepwise-e2e');
fs.mkdirSync(SHOTS, { recursive: true });

const STEPS = ['Step one', 'Step two', 'Step three', 'Step four'];
const P = 'pending';
const I = 'in_progress';

const { app, s } = autopilotAppPerFile({ name: 'autopilot', env: { OPENAI_API_KEY: 'sk-e2e-autopilot' } });
const page = (): Page => app.page;
const main = () => page().getByRole('main');
const autopilotSwitch = () => main().getByRole('switch', { name: 'Autopilot' });
const autoMessages = () => main().getByRole('article', { name: 'Autopilot message' });
const line = (text: string | RegExp) => main().getByRole('status').filter({ hasText: text });

async function visible(locator: Locator, timeout = 15_000) {
  await locator.waitFor({ state: 'visible', timeout });
}

/** A reply that takes about `ms` to stream, so its step's "Continuing:" line stays long enough to be seen. */
const slowReply = (text: string, ms: number) => ({
  text: text.padEnd(40, '.'),
  chunkSize: 2,
  chunkDelayMs: Math.round(ms / 20),
});

describe('Autopilot in the browser', () => {
  it('continues twice by itself, pauses at the cap, and goes on with Continue', async () => {
    // A cap of 2 steps per message, set in Settings.
    await page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'Settings', exact: true })
      .click();
    await page().getByRole('link', { name: 'Agent' }).click();
    const cap = page().getByRole('spinbutton', { name: 'Autopilot steps per message' });
    await cap.fill('2');
    await cap.press('Tab');
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();

    await visible(autopilotSwitch());
    expect(await autopilotSwitch().getAttribute('aria-checked')).toBe('false');
    await autopilotSwitch().click();
    await expect.poll(() => autopilotSwitch().getAttribute('aria-checked')).toBe('true');

    s.model.push(
      plan(STEPS, [I, P, P, P]),
      { text: 'Step one is finished.' },
      slowReply('Step two is finished', 1500),
      slowReply('Step three is finished', 1500),
      slowReply('Step four is finished', 1500),
    );
    s.assessor.push(...STEPS.map(() => verdict(true, 'Finished.')));

    await page().getByRole('textbox', { name: 'Message' }).fill('Do the four steps.');
    await page().keyboard.press('Enter');

    // Two automatic continuations, each announced under the task header.
    await visible(line('Continuing: Step two'));
    await visible(autoMessages().filter({ hasText: 'Continuing: Step two' }));
    await visible(line('Continuing: Step three'));
    await visible(autoMessages().filter({ hasText: 'Continuing: Step three' }));

    // The cap: paused with a Continue button; the third step was not checked yet.
    const paused = line('Autopilot paused after 2 steps');
    await visible(paused);
    expect(await autoMessages().count()).toBe(2);
    expect(s.assessorRequests()).toHaveLength(2);
    // The line shows while its step runs: the pause replaced it.
    await line(/^Continuing:/).waitFor({ state: 'hidden', timeout: 5_000 });
    await page().screenshot({ path: path.join(SHOTS, 'autopilot-paused.png') });

    await paused.getByRole('button', { name: 'Continue' }).click();
    await visible(line('Continuing: Step four'));
    await visible(autoMessages().filter({ hasText: 'Continuing: Step four' }));
    await visible(
      main().getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'Step four is finished' }),
    );
    await expect.poll(() => s.assessorRequests().length, { timeout: 10_000 }).toBe(4);
    await paused.waitFor({ state: 'hidden' });
    // Autopilot's messages read as dividers; their text for the model is made only when a request is built.
    expect(await autoMessages().allInnerTexts()).toEqual([
      'Continuing: Step two',
      'Continuing: Step three',
      'Continuing: Step four',
    ]);
    expect(
      await main()
        .getByText(/NEXT_TODO/)
        .count(),
    ).toBe(0);
    // Every step was completed.
    await visible(main().getByRole('region', { name: 'Tasks' }).getByText('All 4 tasks completed'));
  });

  it('after Autopilot steps neither export holds a control prefix; Markdown has only what the user wrote as "You"', async () => {
    const dir = makeTempDir('stepwise-autopilot-export-');
    try {
      const json = await exportConversation(page(), TITLE, 'json', dir);
      const markdown = await exportConversation(page(), TITLE, 'md', dir);
      expect(json).not.toMatch(PLUMBING_PREFIXES);
      expect(markdown).not.toMatch(PLUMBING_PREFIXES);
      const typed = ConversationExport.parse(JSON.parse(json))
        .messages.filter((m) => m.role === 'user' && m.kind === 'user')
        .map((m) => m.content.trim());
      expect(typed).toEqual(['Do the four steps.']);
      expect(youSections(markdown)).toEqual(typed);
    } finally {
      removeDir(dir);
    }
  });

  it("with a 0 ms model, shows each step's own line, straight from the core, and nothing after the end", async () => {
    // The page's timers from here on run on Playwright's clock (it flows as time does), so
    // the end's check can move it on instead of waiting.
    await page().clock.install();
    await page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'Settings', exact: true })
      .click();
    await page().getByRole('link', { name: 'Agent' }).click();
    const cap = page().getByRole('spinbutton', { name: 'Autopilot steps per message' });
    await cap.fill('5');
    await cap.press('Tab');
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await visible(autopilotSwitch());
    await autopilotSwitch().click();
    await expect.poll(() => autopilotSwitch().getAttribute('aria-checked')).toBe('true');

    // Every line the page showed, in order, as the DOM changed.
    await page().evaluate(() => {
      const read = () => document.querySelector('.autopilot-line')?.textContent?.trim() ?? null;
      const seen: Array<string | null> = [read()];
      (window as unknown as { autopilotLines: Array<string | null> }).autopilotLines = seen;
      new MutationObserver(() => {
        const text = read();
        if (seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const seenLines = () =>
      page().evaluate(() => (window as unknown as { autopilotLines: Array<string | null> }).autopilotLines);

    const three = ['North', 'South', 'East'];
    const checksBefore = s.assessorRequests().length;
    s.model.push(
      plan(three, [I, P, P]),
      { text: 'North is done.' },
      { text: 'South is done.' },
      { text: 'East is done.' },
    );
    s.assessor.push(...three.map(() => verdict(true, 'Finished.')));
    await page().getByRole('textbox', { name: 'Message' }).fill('Count the three baskets.');
    await page().keyboard.press('Enter');

    await visible(main().getByRole('region', { name: 'Tasks' }).getByText('All 3 tasks completed'));
    await expect.poll(() => s.assessorRequests().length - checksBefore, { timeout: 10_000 }).toBe(3);
    await expect.poll(async () => (await seenLines()).at(-1), { timeout: 10_000 }).toBeNull();
    // The old line came back two seconds after a quick check; nothing may come back now.
    await page().clock.runFor(2_100);
    const checking = 'Autopilot is checking whether the current task is done… (Esc to stop)';
    expect(await seenLines()).toEqual([
      null,
      checking,
      'Continuing: South',
      checking,
      'Continuing: East',
      checking,
      null,
    ]);
    expect(await line(/Continuing|checking/).count()).toBe(0);
  });

  it('the switch reads as on in both themes, hovered or not', async () => {
    const background = () => autopilotSwitch().evaluate((el) => getComputedStyle(el).backgroundColor);
    const accent = () =>
      page().evaluate(() => {
        const probe = document.createElement('div');
        probe.style.background = 'var(--accent-strong)';
        document.body.append(probe);
        const color = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return color;
      });
    for (const theme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme: theme });
      await expect.poll(() => page().evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      expect(await autopilotSwitch().getAttribute('aria-checked')).toBe('true');
      await page().mouse.move(0, 0);
      const on = await background();
      expect(on).toBe(await accent());
      await autopilotSwitch().hover();
      expect(await background()).toBe(on);

      await autopilotSwitch().click();
      await expect.poll(() => autopilotSwitch().getAttribute('aria-checked')).toBe('false');
      expect(await background()).not.toBe(on); // off, still hovered
      await autopilotSwitch().click();
      await expect.poll(() => autopilotSwitch().getAttribute('aria-checked')).toBe('true');
      expect(await background()).toBe(on);
    }
  });
});
