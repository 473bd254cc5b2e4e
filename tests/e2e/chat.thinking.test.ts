// Reasoning models end to end: the thinking streams into a collapsible "Thinking" block
// above the reply, with how long it took; it expands on request and is never part of the
// answer. A reply that is only thinking says the model gave no answer.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chunk, DONE, thinkTagsInContent } from '../support/sseFixtures';
import { NO_ANSWER_NOTE } from '../../src/main/core/llm/turnOutcome';
import { appPerFile } from './support/appPerFile';
import { gate, turnQueue } from './support/chatScript';

const turns = turnQueue({ title: () => 'Thinking it over' });

const page = (): Page => app.page;
const lastAssistant = () => page().getByRole('article', { name: 'Assistant message', exact: true }).last();
const thinking = () => lastAssistant().getByRole('button', { name: /Thinking/ });
const textOf = (locator: ReturnType<Page['locator']>) => locator.innerText().catch(() => '');

async function ask(text: string) {
  await page()
    .getByRole('complementary', { name: 'Conversations' })
    .getByRole('button', { name: 'New conversation', exact: true })
    .click();
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().getByRole('button', { name: 'Send', exact: true }).click();
}

const idle = () => page().getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 15_000 });

const { app } = appPerFile({ name: 'thinking', server: { script: turns.script } });

describe('the Thinking block', () => {
  it('streams above the reply, then shows its duration and expands on request', async () => {
    const answer = gate();
    turns.push({
      raw: [
        chunk({ role: 'assistant', reasoning_content: 'The user asks about trains. ' }),
        chunk({ reasoning_content: 'Trains are greener than planes.' }),
        { until: answer.opened },
        chunk({ content: 'Take the **train**.' }),
        chunk({}, 'stop'),
        DONE,
      ],
    });
    await ask('Train or plane?');
    // While the model thinks: a live block, and no typing dots.
    await expect.poll(() => textOf(thinking()), { timeout: 10_000 }).toBe('Thinking…');
    await expect.poll(() => lastAssistant().getByLabel('Assistant is typing').count()).toBe(0);
    answer.open();
    await idle();

    // Its accessible name carries the duration.
    const button = lastAssistant().getByRole('button', { name: /^Thinking · \d+(\.\d)? s$/ });
    expect(await button.count()).toBe(1);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    // The block sits above the answer, and the answer holds none of the thinking.
    const shown = await textOf(lastAssistant());
    expect(shown.indexOf('Thinking')).toBeGreaterThan(-1);
    expect(shown.indexOf('Thinking')).toBeLessThan(shown.indexOf('Take the train.'));
    expect(shown).not.toContain('Trains are greener');

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const region = lastAssistant().getByRole('region', { name: 'Thinking' });
    expect(await region.innerText()).toBe('The user asks about trains. Trains are greener than planes.');
    await button.press('Enter');
    expect(await region.count()).toBe(0);
  });

  it('<think> tags from a local model become the same block', async () => {
    turns.push(thinkTagsInContent);
    await ask('Which is faster?');
    await idle();
    // The page paints the final text on its next frame.
    await expect.poll(() => textOf(lastAssistant().locator('.markdown')), { timeout: 10_000 }).toBe('Take the train.');
    await thinking().click();
    expect(await lastAssistant().getByRole('region', { name: 'Thinking' }).innerText()).toBe(
      'Weighing the options carefully.',
    );
    expect(await textOf(lastAssistant())).not.toContain('<think>');
  });

  it('a reply that is only thinking says the model gave no answer', async () => {
    turns.push({
      raw: [chunk({ role: 'assistant', reasoning_content: 'Hmm. Let me think about it.' }), chunk({}, 'stop'), DONE],
    });
    await ask('Well?');
    // Wait on the reply itself: Send may show before the loop has started.
    await expect.poll(() => textOf(lastAssistant()), { timeout: 10_000 }).toContain(NO_ANSWER_NOTE);
    expect(await thinking().count()).toBe(1);
  });
});
