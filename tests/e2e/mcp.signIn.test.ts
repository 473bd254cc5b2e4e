// Signing in to a remote MCP server and answering an elicitation form, in Chromium against
// the browser host: the card of a server that answers 401 offers Sign in; the sign-in page
// opens in a new tab, the SDK's demo authorization server sends it back to the loopback,
// and the card says signed in. Then a tool of the everything server asks with a form: its
// defaults are filled in, a choice is a list, a switch a checkbox; Submit reaches the server.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../support/tempDir';
import { everything } from '../support/mcpFixtures';
import { startOAuthExample } from '../support/mcpOAuthFixtures';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
import type { ChatBody } from '../support/scriptedServer';

const turns = turnQueue({ title: () => 'Elicit' });
let example: Awaited<ReturnType<typeof startOAuthExample>>;
let root = '';

const { app } = appPerFile({
  name: 'mcpSignIn',
  server: { script: turns.script },
  prepare: async () => {
    example = await startOAuthExample();
    root = makeTempDir('stepwise-mcp-signin-e2e-');
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    // Configured before the first start: both count as allowed.
    fs.writeFileSync(
      path.join(dataDir, 'mcp.json'),
      JSON.stringify({ mcpServers: { remote: { url: example.url }, everything: everything({ trusted: true }) } }),
    );
    // The elicitation comes from a tool call made without a plan: plan review (which would
    // hold it until a plan is approved) is off here.
    return { dataDir, planReview: false };
  },
  afterClose: async () => {
    await example?.close();
    if (root) removeDir(root);
  },
});

describe('remote sign-in and elicitation forms', () => {
  it('signs in to a server that answered 401 from its card, through a new tab', async () => {
    const page = app.page;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'Tools (MCP)' }).click();
    const card = page.getByRole('article', { name: 'MCP server remote' });
    await card.getByRole('button', { name: 'Restart remote' }).click();
    await card.getByRole('button', { name: 'Sign in to remote' }).waitFor({ timeout: 20_000 });
    expect(await card.getByRole('alert').first().textContent()).toContain('This server needs you to sign in.');

    const opened = app.context.waitForEvent('page');
    await card.getByRole('button', { name: 'Sign in to remote' }).click();
    const tab = await opened;
    await tab.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 20_000 });
    expect(new URL(tab.url()).hostname).toBe('127.0.0.1');
    await tab.close();

    await card.getByRole('button', { name: 'Sign out of remote' }).waitFor({ timeout: 20_000 });
    // Sign-in restarts the server with its tokens: it reads "starting" until it has listed its tools.
    await expect
      .poll(() => card.getByRole('status').first().textContent(), { timeout: 20_000 })
      .toMatch(/^ready with \d+ tools$/);
    await page.getByRole('button', { name: 'Close settings' }).click();
  });

  it('asks with a form: defaults filled in, choices as a list, a switch as a checkbox', async () => {
    const page = app.page;
    const seen: ChatBody[] = [];
    turns.push(
      { toolCalls: [{ id: 'call_ask', name: 'mcp__everything__trigger-elicitation-request', arguments: '{}' }] },
      (body) => {
        seen.push(body);
        return { text: 'Thanks.' };
      },
    );
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Ask me.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const form = page.getByRole('form', { name: 'Answer to Assistant' });
    // The first request starts the everything server (it may take up to its 30 s start), then asks.
    await form.waitFor({ timeout: 60_000 });
    expect(await form.getByRole('textbox', { name: 'String with default', exact: true }).inputValue()).toBe(
      'It was a dark and stormy night.',
    );
    expect(await form.getByRole('spinbutton', { name: 'Integer', exact: true }).inputValue()).toBe('42');
    expect(await form.getByRole('combobox', { name: 'Titled Single Select Enum', exact: true }).inputValue()).toBe(
      'hero-1',
    );
    expect(await form.getByRole('checkbox', { name: 'Tuna', exact: true }).isChecked()).toBe(true);

    // A required field left empty is named before anything is sent.
    await form.getByRole('button', { name: 'Submit' }).click();
    expect(await form.getByRole('alert').textContent()).toBe('String is required.');
    await form.getByRole('textbox', { name: 'String (required)', exact: true }).fill('Ada Lovelace');
    await form.getByRole('checkbox', { name: 'Boolean', exact: true }).check();
    await form
      .getByRole('combobox', { name: 'Titled Single Select Enum', exact: true })
      .selectOption({ label: 'Wonder Woman' });
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.waitFor({ state: 'detached', timeout: 20_000 });
    await expect
      .poll(() => String(seen.at(-1)?.messages.findLast((m) => m.role === 'tool')?.content ?? ''), { timeout: 20_000 })
      .toContain('hero-3');
  });
});
