// Instructions (issue 15, item 1): the default system prompt from Settings and the
// conversation's own instructions (set before the first send, in "Conversation settings")
// open the system message of the next request the scripted server receives, ahead of
// Stepwise's own guidance; changed instructions reach the next request.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody } from '../support/scriptedServer';
import { appPerFile } from './support/appPerFile';
import { systemPromptOf, turnQueue } from './support/chatScript';
import { violations } from './support/axe';
import fs from 'node:fs';

const turns = turnQueue({ title: () => 'Pirate talk' });
const bodies: ChatBody[] = [];

const page = (): Page => app.page;
const DEFAULT_PROMPT = 'Always answer in haiku.';

const { app } = appPerFile({ name: 'instructions', server: { script: turns.script } });

function reply(text: string) {
  turns.push((body) => {
    bodies.push(body);
    return { text };
  });
}

async function setInstructions(text: string) {
  await page().getByRole('button', { name: 'Conversation settings' }).click();
  const dialog = page().getByRole('dialog', { name: 'Conversation settings' });
  const field = dialog.getByRole('textbox', { name: 'Instructions' });
  await expect.poll(() => field.isEnabled()).toBe(true);
  await field.fill(text);
  expect(await violations(page())).toEqual([]);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

async function send(text: string, answer: string) {
  reply(answer);
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().getByRole('button', { name: 'Send', exact: true }).click();
  await page().getByText(answer).waitFor({ timeout: 15_000 });
}

describe('instructions', () => {
  it('keeps a default system prompt in Settings', async () => {
    await page().keyboard.press('Control+,');
    await page().getByRole('link', { name: 'Instructions' }).click();
    const field = page().getByRole('textbox', { name: 'Default system prompt' });
    await field.fill(DEFAULT_PROMPT);
    await field.blur();
    await page().reload();
    await page().keyboard.press('Control+,');
    await page().getByRole('link', { name: 'Instructions' }).click();
    await expect
      .poll(() => page().getByRole('textbox', { name: 'Default system prompt' }).inputValue())
      .toBe(DEFAULT_PROMPT);
  });

  it('sends the default prompt, then the conversation instructions set before the first send, first in the request', async () => {
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await setInstructions('Reply like a pirate.');
    await send('Hello there', 'Ahoy, matey.');
    const system = systemPromptOf(bodies.at(-1)!);
    expect(system.startsWith(`${DEFAULT_PROMPT}\n\nReply like a pirate.\n\nYou are Stepwise`)).toBe(true);
    expect(bodies.at(-1)!.messages[0]!.role).toBe('system');
  });

  it('sends changed instructions with the next request of the stored conversation', async () => {
    await setInstructions('Reply like a robot.');
    await send('And now?', 'Beep. Understood.');
    const system = systemPromptOf(bodies.at(-1)!);
    expect(system.startsWith(`${DEFAULT_PROMPT}\n\nReply like a robot.\n\n`)).toBe(true);
    expect(system).not.toContain('pirate');
    // The dialog shows what is stored.
    await page().getByRole('button', { name: 'Conversation settings' }).click();
    const dialog = page().getByRole('dialog', { name: 'Conversation settings' });
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Instructions' }).inputValue())
      .toBe('Reply like a robot.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('saves prompts in Settings, imports and exports them as JSON, and "/" inserts one by keyboard', async () => {
    await page().keyboard.press('Control+,');
    await page().getByRole('link', { name: 'Prompt library' }).click();
    const library = page().getByRole('group', { name: 'Prompt library' });
    await library.getByRole('textbox', { name: 'Prompt title' }).fill('Summarize');
    await library
      .getByRole('textbox', { name: 'Prompt text' })
      .fill('Summarize the conversation so far in three bullet points.');
    await library.getByRole('button', { name: 'Save prompt' }).click();
    await library.getByRole('button', { name: 'Delete prompt “Summarize”' }).waitFor();

    const chooser = page().waitForEvent('filechooser');
    await library.getByRole('button', { name: 'Import prompts…' }).click();
    const file = JSON.stringify({
      format: 'stepwise.prompts',
      version: 1,
      prompts: [{ title: 'Translate', text: 'Translate the last reply into German.' }],
    });
    await (await chooser).setFiles({ name: 'prompts.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await library.getByRole('button', { name: 'Delete prompt “Translate”' }).waitFor();
    expect(await violations(page())).toEqual([]);

    const download = page().waitForEvent('download');
    await library.getByRole('button', { name: 'Export prompts' }).click();
    const exportedFile = JSON.parse(fs.readFileSync((await (await download).path())!, 'utf8')) as {
      format: string;
      prompts: Array<{ title: string }>;
    };
    expect(exportedFile.format).toBe('stepwise.prompts');
    expect(exportedFile.prompts.map((p) => p.title)).toEqual(['Summarize', 'Translate']);

    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    const composer = page().getByRole('textbox', { name: 'Message' });
    await composer.fill('/');
    const list = page().getByRole('listbox', { name: 'Commands and saved prompts' });
    // The saved prompts, then the composer's own commands.
    expect(await list.getByRole('option').locator('strong').allTextContents()).toEqual([
      'Summarize',
      'Translate',
      '/clear',
      '/compact',
    ]);
    await composer.pressSequentially('tr');
    await expect.poll(() => list.getByRole('option').count()).toBe(1);
    await composer.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await composer.fill('/');
    await list.waitFor();
    expect(await violations(page())).toEqual([]);
    await composer.press('ArrowDown');
    expect(await list.getByRole('option', { selected: true }).textContent()).toContain('Translate');
    await composer.press('ArrowUp');
    await composer.press('Enter');
    expect(await composer.inputValue()).toBe('Summarize the conversation so far in three bullet points.');
    await list.waitFor({ state: 'hidden' });
    expect(turns.pending()).toBe(0);
  });
});
