// Providers end to end, in Chromium against two scripted servers: a second profile is
// added in Settings, its saved key follows it to a new base URL only after "Send the saved
// key to …?", the header's Model picker sends the next request to that server with that
// model, each reply shows its token line, and a small context window makes the history
// compact: the marker appears and the next request carries a shorter history.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startScriptedServer, type ChatBody, type ScriptedServer } from '../support/scriptedServer';
import { OFFLINE_BASE_URL } from './support/app';
import { appPerFile } from './support/appPerFile';

const KEY_B = 'sk-test-second-provider';
const SUMMARY = 'SUMMARY: the user sent long notes about the garden.';
const words = (prefix: string, n: number) => `${prefix} ${Array.from({ length: n }, (_, i) => `leaf${i}`).join(' ')}`;

let second: ScriptedServer;
const page = (): Page => app.page;
const composer = () => page().getByRole('textbox', { name: 'Message' });
const sendButton = () => page().getByRole('button', { name: 'Send', exact: true });
const editor = () => page().getByRole('region', { name: /^Provider / });

const isSummaryRequest = (body: ChatBody) => String(body.messages[0]?.content).includes('compact a conversation');

const { app, server: envServer } = appPerFile({
  name: 'providers',
  server: { fallback: { text: 'From the environment server.' } },
  env: { OPENAI_API_KEY: 'sk-env' },
  prepare: async () => {
    second = await startScriptedServer({
      models: ['model-b1', 'model-b2'],
      script: (request) =>
        request.body.stream
          ? { text: words('Reply from B:', 250) }
          : { text: isSummaryRequest(request.body) ? SUMMARY : 'Garden notes' },
    });
  },
  afterClose: () => second?.close(),
});

async function openSettings() {
  await page().getByRole('button', { name: 'Settings', exact: true }).click();
  await page().getByRole('group', { name: 'Providers' }).waitFor();
}

async function closeSettings() {
  await page().getByRole('button', { name: 'Close settings' }).click();
}

/** Sends and waits until the reply has finished (its article is there and Stop is gone). */
async function send(text: string) {
  const replies = page().getByRole('article', { name: 'Assistant message', exact: true });
  const before = await replies.count();
  await composer().fill(text);
  await sendButton().click();
  await expect.poll(() => replies.count(), { timeout: 15_000 }).toBeGreaterThan(before);
  await page().getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'detached', timeout: 15_000 });
  await sendButton().waitFor({ timeout: 15_000 });
}

describe('providers and models', () => {
  it('adds a second profile whose saved key is sent to a changed base URL only after confirming', async () => {
    await openSettings();
    // The Environment profile is shown read-only, its fields saying which variable sets them.
    expect(await editor().getByText('Set by OPENAI_BASE_URL').count()).toBe(1);
    expect(await editor().getByRole('textbox', { name: 'Base URL' }).isDisabled()).toBe(true);

    await page()
      .getByRole('combobox', { name: 'Add a provider' })
      .selectOption({ label: 'Custom (OpenAI-compatible)' });
    await page().getByRole('region', { name: 'Provider Custom' }).waitFor();
    const baseUrl = editor().getByRole('textbox', { name: 'Base URL' });
    await baseUrl.fill(OFFLINE_BASE_URL);
    await baseUrl.blur();
    await editor().getByLabel('API key').fill(KEY_B);
    await editor().getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => editor().getByPlaceholder('•••••••• (saved)').count()).toBe(1);

    // A new address: the key is held back until the user says so.
    await baseUrl.fill(second.baseUrl);
    await baseUrl.blur();
    const ask = page().getByRole('dialog', { name: `Send the saved key to ${second.baseUrl}?` });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Send the key' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await editor().getByText('It is sent only to this base URL').count()).toBe(1);

    await editor().getByRole('button', { name: 'Load models' }).click();
    await page().getByRole('status').getByText('2 models available').waitFor();
    await closeSettings();
  });

  it('picks the second profile and model in the header; the next request goes there, with a token line', async () => {
    await page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'New conversation', exact: true })
      .click();
    const picker = page().getByRole('combobox', { name: 'Model', exact: true });
    expect(await picker.locator('option:checked').innerText()).toBe('scripted');
    await picker.selectOption({ label: 'model-b2' });
    await send('Hello, second server.');

    const request = second.streamRequests().at(-1)!;
    expect(request.body.model).toBe('model-b2');
    expect(request.headers.authorization).toBe(`Bearer ${KEY_B}`);
    expect(envServer.streamRequests()).toHaveLength(0);
    const reply = page().getByRole('article', { name: 'Assistant message' }).last();
    await expect.poll(() => reply.innerText()).toMatch(/\d[\d,]* prompt · \d[\d,]* completion tokens/);
    await expect
      .poll(() =>
        page()
          .getByRole('note', { name: /^Conversation usage: / })
          .count(),
      )
      .toBe(1);
    // Settings opens on this conversation's profile (not the Environment one listed first).
    await openSettings();
    await page().getByRole('region', { name: 'Provider Custom' }).waitFor();
    await closeSettings();
    // New conversations start with the last choice.
    await page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'New conversation', exact: true })
      .click();
    await expect
      .poll(() => page().getByRole('combobox', { name: 'Model', exact: true }).locator('option:checked').innerText())
      .toBe('model-b2');
  });

  it('compacts the history with a small context window: a marker, and a shorter next request', async () => {
    await openSettings();
    await page().getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Custom' });
    await page().getByRole('combobox', { name: 'Model details for' }).selectOption('model-b2');
    await editor().getByRole('spinbutton', { name: 'Context window (tokens)' }).fill('4000');
    await editor().getByRole('button', { name: 'Save model details' }).click();
    await page().getByRole('status').getByText('Saved the details of model-b2').waitFor();
    await closeSettings();

    await page()
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'New conversation', exact: true })
      .click();
    const marker = page().getByRole('article', { name: 'Summary of earlier messages' });
    for (let i = 0; i < 6 && (await marker.count()) === 0; i++) await send(words(`Note ${i}:`, 150));
    await marker.getByText('Earlier messages summarized').waitFor();
    // The request right after compaction: the summary instead of the oldest turns.
    const [previous, next] = second
      .streamRequests()
      .slice(-2)
      .map((r) => r.body);
    expect(String(next.messages[0].content)).toContain(SUMMARY);
    expect(next.messages.some((m) => String(m.content).startsWith('Note 0:'))).toBe(false);
    expect(previous.messages.some((m) => String(m.content).startsWith('Note 0:'))).toBe(true);
    expect(next.messages.length).toBeLessThan(previous.messages.length + 2);
    // The originals stay in the transcript.
    expect(await page().getByRole('article', { name: 'You message' }).filter({ hasText: 'Note 0:' }).count()).toBe(1);
  });
});
