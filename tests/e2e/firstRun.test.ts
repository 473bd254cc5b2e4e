// The first run in Debian Chromium: with no provider at all (no OPENAI_* variables, no
// profile) the home screen shows "Connect a model". Custom with the scripted server's
// address and a key, "Test connection" lists its models, picking one makes it the
// default, the card gives way to the normal home, and an example prompt then gets a
// reply through the real openai SDK. The home hint offers the browser's shortcut.
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';
import { violations } from './support/axe';

// The server is up but the app is not pointed at it: the first run connects to it by hand.
const { app, server } = appPerFile({
  name: 'first-run',
  server: { models: ['tiny-model', 'big-model'], fallback: { text: 'Here is the plan for Lisbon.' } },
  env: { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, STEPWISE_MODEL: undefined },
});

describe('first run', () => {
  it('offers Connect a model, and the browser shortcut for a new conversation', async () => {
    const { page } = app;
    const card = page.getByRole('region', { name: 'Connect a model' });
    await card.waitFor();
    const hint = await page.locator('.empty-state .hint').innerText();
    expect(hint).toContain('Alt + N');
    expect(hint).not.toMatch(/Ctrl\/⌘ \+ N/);
    // Each key its own chip, "or" between them as text.
    expect(await page.locator('.empty-state .hint kbd').allInnerTexts()).toEqual(['Alt + N', 'Ctrl/⌘ + K', '/']);
    expect(hint).toContain('Ctrl/⌘ + K or / search');
    // The presets fill in their address.
    const provider = card.getByRole('combobox', { name: 'Provider' });
    expect(await provider.locator('option').allInnerTexts()).toEqual(
      expect.arrayContaining(['OpenAI', 'Ollama', 'LM Studio', 'Custom (OpenAI-compatible)']),
    );
    await provider.selectOption({ label: 'Ollama' });
    expect(await card.getByRole('textbox', { name: 'Base URL' }).inputValue()).toBe('http://127.0.0.1:11434/v1');
    expect(
      await page
        .getByRole('list')
        .filter({ has: page.getByRole('button', { name: /three-day trip/ }) })
        .getByRole('button')
        .count(),
    ).toBe(3);
    expect(await violations(page)).toEqual([]);
  });

  it('without a model, a new conversation cannot send and points to Connect a model; nothing is stored', async () => {
    const { page } = app;
    await page
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: 'New conversation', exact: true })
      .click();
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('Plan a weekend in Porto');
    const send = page.getByRole('button', { name: 'Send', exact: true });
    expect(await send.isDisabled()).toBe(true);
    await composer.press('Enter');
    expect(await page.getByRole('article', { name: 'You message' }).count()).toBe(0);
    expect(await composer.inputValue()).toBe('Plan a weekend in Porto');
    // No stray conversation in the sidebar.
    await page.getByText('No conversations yet. Start one with “New conversation”.').waitFor();
    await page.getByRole('form', { name: 'Message composer' }).getByRole('link', { name: 'Connect a model' }).click();
    await page.getByRole('region', { name: 'Connect a model' }).waitFor();
  });

  it('says why a connection fails, and keeps the card', async () => {
    const card = app.page.getByRole('region', { name: 'Connect a model' });
    await card.getByRole('combobox', { name: 'Provider' }).selectOption({ label: 'Custom (OpenAI-compatible)' });
    await card.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9/v1');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('alert').waitFor();
    // It names the card's own field, not a profile in Settings the user has not seen.
    const said = await card.getByRole('alert').innerText();
    expect(said).toContain('"Base URL" field');
    expect(said).not.toContain('Settings');
    expect(await card.getByRole('combobox', { name: 'Model' }).count()).toBe(0);
  });

  it('leads to a working conversation with the scripted server', async () => {
    const { page } = app;
    const card = page.getByRole('region', { name: 'Connect a model' });
    await card.getByRole('textbox', { name: 'Base URL' }).fill(server.baseUrl);
    await card.getByLabel(/^API key/).fill('sk-first-run');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('status').getByText('2 models available').waitFor();
    const model = card.getByRole('combobox', { name: 'Model' });
    expect(await model.locator('option').allInnerTexts()).toEqual(['big-model', 'tiny-model']);
    await model.selectOption('tiny-model');
    await card.getByRole('button', { name: 'Use this model' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Start a new conversation' }).waitFor();

    await page.getByRole('button', { name: /three-day trip to Lisbon/ }).click();
    const composer = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => composer.inputValue()).toMatch(/^Plan a three-day trip to Lisbon/);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Here is the plan for Lisbon.').waitFor();
    const sent = server.streamRequests().at(-1)!;
    expect(sent.body.model).toBe('tiny-model');
    expect(sent.headers.authorization).toBe('Bearer sk-first-run');
    expect(sent.body.messages.at(-1)?.content).toMatch(/^Plan a three-day trip to Lisbon/);

    // The choice stays: after a restart the home screen is the normal one.
    await app.restart();
    await app.page.getByRole('button', { name: 'Start a new conversation' }).waitFor();
    expect(await app.page.getByRole('region', { name: 'Connect a model' }).count()).toBe(0);
  });

  it('offers only the connected server: no unset preset in the Model picker or Settings, and Load models fills the Default model picker', async () => {
    const { page } = app;
    await page.getByRole('complementary', { name: 'Conversations' }).getByRole('link').first().click();
    const picker = page.getByRole('combobox', { name: 'Model', exact: true });
    await picker.waitFor();
    expect(
      await picker.locator('optgroup').evaluateAll((groups) => groups.map((g) => g.getAttribute('label'))),
    ).toEqual(['Custom']);
    expect(await picker.locator('option').allInnerTexts()).toEqual(['tiny-model', 'big-model']);

    // Settings opens on the conversation's profile; the OpenAI preset is only under "Add a provider".
    await page.keyboard.press('Control+,');
    await page.getByRole('region', { name: 'Provider Custom' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Profile' }).locator('option').allInnerTexts()).toEqual(['Custom']);
    expect(await page.getByRole('combobox', { name: 'Add a provider' }).locator('option').allInnerTexts()).toContain(
      'OpenAI',
    );

    await page.getByRole('button', { name: 'Load models' }).click();
    const defaultModel = page.getByRole('combobox', { name: 'Default model' });
    const listed = page.getByRole('listbox', { name: 'Models the server lists' });
    await listed.waitFor();
    expect(await listed.getByRole('option').allInnerTexts()).toEqual(['big-model', 'tiny-model']);
    expect(await violations(page)).toEqual([]);
    await defaultModel.fill('big');
    await expect.poll(() => listed.getByRole('option').allInnerTexts()).toEqual(['big-model']);
    await defaultModel.press('ArrowDown');
    await defaultModel.press('Enter');
    await listed.waitFor({ state: 'hidden' });
    expect(await defaultModel.inputValue()).toBe('big-model');
    // Any name can still be typed.
    await defaultModel.fill('big');
    await listed.waitFor();
    await defaultModel.press('Escape');
    await listed.waitFor({ state: 'hidden' });
    expect(await page.getByRole('region', { name: 'Settings' }).isVisible()).toBe(true);
    await defaultModel.fill('a-model-it-does-not-list');
    await defaultModel.press('Tab');
    await page.getByRole('button', { name: 'Close settings' }).click();
    await page.keyboard.press('Control+,');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Default model' }).inputValue())
      .toBe('a-model-it-does-not-list');
  });

  it('Settings open in one tab shows the profile as another tab changes it', async () => {
    const { page } = app;
    const field = (p: typeof page, name: string) =>
      p.getByRole('region', { name: 'Provider Custom' }).getByRole('combobox', { name });
    await field(page, 'Default model').waitFor();
    const other = await app.openPage();
    await other.goto(page.url());
    await field(other, 'Default model').fill('tiny-model');
    await field(other, 'Default model').press('Tab');
    await expect.poll(() => field(page, 'Default model').inputValue()).toBe('tiny-model');
    await other.close();
  });
});
