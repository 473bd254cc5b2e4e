// MCP Apps in Chromium against the browser host, with the ext-apps example server
// (@modelcontextprotocol/server-basic-vanillajs, over stdio): the model calls get-time, the
// step shows the server's app in a sandboxed frame with the call's result, and a tool call
// the app makes waits for Allow once like the model's, then reaches the app. A hostile app
// (tests/support/mcp/hostileAppServer.mjs) reaches none of the host's storage, cookies,
// address or network, cannot navigate the window, and its tool call waits for the user.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE } from '../support/mcpFixtures';
import { makeTempDir, removeDir } from '../support/tempDir';
import { appPerFile } from './support/appPerFile';
import { systemPromptOf, turnQueue } from './support/chatScript';

const BASIC_APP_BIN = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js', import.meta.url),
);
const HOSTILE_BIN = fileURLToPath(new URL('../support/mcp/hostileAppServer.mjs', import.meta.url));
const FEATURES_BIN = fileURLToPath(new URL('../support/mcp/appFeaturesServer.mjs', import.meta.url));
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const turns = turnQueue({ title: () => 'What time is it' });
let root = '';

const { app } = appPerFile({
  name: 'mcpApps',
  server: { script: turns.script },
  prepare: () => {
    root = makeTempDir('stepwise-mcp-apps-e2e-');
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    // Configured before the first start: it counts as allowed.
    fs.writeFileSync(
      path.join(dataDir, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          basic: { command: NODE, args: [BASIC_APP_BIN, '--stdio'] },
          hostile: { command: NODE, args: [HOSTILE_BIN], alwaysAllow: ['show'] },
          features: { command: NODE, args: [FEATURES_BIN], alwaysAllow: ['map', 'refresh', 'summary'] },
        },
      }),
    );
    // The subject is the approval of the app's calls, made without a plan.
    return { dataDir, planReview: false };
  },
  afterClose: () => {
    if (root) removeDir(root);
  },
});

describe('MCP Apps', () => {
  it("shows the tool's app with its result; the app's own tool call waits for Allow once", async () => {
    const page = app.page;
    turns.push(
      { toolCalls: [{ id: 'call_time', name: 'mcp__basic__get-time', arguments: '{}' }] },
      { text: 'That is the time.' },
    );
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('What time is it?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    // The model's call is approved on its card (the first request starts the server).
    await page.getByRole('button', { name: 'Allow once' }).click({ timeout: 60_000 });
    await page.getByText('That is the time.').waitFor();

    const group = page.getByRole('group', { name: 'App of get-time (basic)' });
    await group.waitFor();
    const appFrame = page.frameLocator('iframe[title="App of get-time (basic)"]').frameLocator('iframe');
    const shown = appFrame.getByRole('code');
    await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toMatch(ISO_TIME);
    const first = await shown.textContent();

    // The app asks its server for the time: the call waits for the user like the model's.
    await appFrame.getByRole('button', { name: 'Get Server Time' }).click();
    const allow = page.getByRole('button', { name: 'Allow once' });
    await allow.waitFor();
    expect(await shown.textContent()).toBe(first);
    await allow.click();
    await expect.poll(() => shown.textContent(), { timeout: 30_000 }).not.toBe(first);
    const second = await shown.textContent();
    expect(second).toMatch(ISO_TIME);

    // Open shows the same app (not reloaded) over the window; Close puts it back in its step.
    await group.getByRole('button', { name: 'Open App of get-time (basic)' }).click();
    const dialog = page.getByRole('dialog', { name: 'App of get-time (basic)' });
    await dialog.waitFor();
    expect(await shown.textContent()).toBe(second);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await shown.textContent()).toBe(second);

    // The app's message goes into the conversation as the user's, and the model answers it.
    turns.push({ text: 'Message received.' });
    await appFrame.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message received.').waitFor();
    await page.getByText('This is message text.').waitFor();
    // No second one until the user writes: an app cannot keep the model busy by itself.
    await appFrame.getByRole('button', { name: 'Send Message' }).click();
    await expect
      .poll(() => group.getByRole('status').textContent())
      .toMatch(/^The app's message was not sent: An app already sent the last message here/);
    expect(await page.getByText('This is message text.').count()).toBe(1);
  });

  it('a hostile app reaches nothing of the host, and its tool call waits for the user', async () => {
    const page = app.page;
    turns.push({ toolCalls: [{ id: 'call_show', name: 'mcp__hostile__show', arguments: '{}' }] }, { text: 'Shown.' });
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Show the app.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Shown.').waitFor({ timeout: 60_000 });
    const before = page.url();

    const attempts = page
      .frameLocator('iframe[title="App of show (hostile)"]')
      .frameLocator('iframe')
      .getByRole('list', { name: 'Attempts' })
      .getByRole('listitem');
    // The app's call of "secret" waits for the user; Deny answers it.
    await page.getByRole('button', { name: 'Deny' }).click({ timeout: 30_000 });
    await expect
      .poll(() => attempts.allTextContents(), { timeout: 30_000 })
      .toContainEqual('tool call: The user denied this call; it did not run.');
    await expect.poll(() => attempts.allTextContents()).toContainEqual('network: blocked');
    const seen = await attempts.allTextContents();
    for (const name of ['storage', 'cookies', 'host address', 'parent address'])
      expect(seen).toContainEqual(`${name}: blocked`);
    const referrer = seen.find((line) => line.startsWith('referrer: '));
    expect(referrer).toBeDefined();
    expect(referrer).not.toContain('token');
    expect(page.url()).toBe(before);
  });

  it('an app goes full screen, updates the model context and calls a tool only it may call', async () => {
    const page = app.page;
    let offered: string[] = [];
    let nextPrompt = '';
    turns.push({ toolCalls: [{ id: 'call_map', name: 'mcp__features__map', arguments: '{}' }] }, (body) => {
      offered = (body.tools ?? []).map((tool) => tool.function.name);
      return { text: 'Map shown.' };
    });
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Show the map.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Map shown.').waitFor({ timeout: 60_000 });
    // The app-only tool is never offered to the model; the others are.
    expect(offered).toContain('mcp__features__summary');
    expect(offered).not.toContain('mcp__features__refresh');

    const appFrame = page.frameLocator('iframe[title="App of map (features)"]').frameLocator('iframe');
    const answers = appFrame.getByRole('list', { name: 'Answers' }).getByRole('listitem');
    await expect
      .poll(() => answers.allTextContents(), { timeout: 30_000 })
      .toContainEqual('host accepts: message,updateModelContext');
    expect(await answers.allTextContents()).toContainEqual('host modes: inline,fullscreen');
    // An app shown in its step takes no focus from the message box.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');

    await appFrame.getByRole('button', { name: 'Full screen' }).click();
    const dialog = page.getByRole('dialog', { name: 'App of map (features)' });
    await dialog.waitFor();
    await expect.poll(() => answers.allTextContents()).toContainEqual('mode: fullscreen');
    await appFrame.getByRole('button', { name: 'Back inline' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => answers.allTextContents()).toContainEqual('mode: inline');

    await appFrame.getByRole('button', { name: 'Call app tool' }).click();
    await expect.poll(() => answers.allTextContents()).toContainEqual('app tool: refreshed 1 times');
    await appFrame.getByRole('button', { name: 'Call model tool' }).click();
    await expect
      .poll(() => answers.allTextContents())
      .toContainEqual(expect.stringMatching(/^model tool: error .*for the model only/));

    // The app's context goes with the next request.
    await appFrame.getByRole('button', { name: 'Share context' }).click();
    await expect.poll(() => answers.allTextContents()).toContainEqual('context: kept');
    turns.push((body) => {
      nextPrompt = systemPromptOf(body);
      return { text: 'You picked Lisbon.' };
    });
    await page.getByRole('textbox', { name: 'Message' }).fill('Which city did I pick?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('You picked Lisbon.').waitFor();
    expect(nextPrompt).toContain('The user picked Lisbon on the map.');
    expect(nextPrompt).toContain('<appContext server="features" tool="map"');
  });
});
