// MCP in Chromium beyond a step's text: a tool step whose server wanted a sign-in offers
// Sign in itself (tests/support/mcp/signInOnCallServer.mjs answers every call with 401), and
// a server's log lines are readable from its card's Log after a flood (the last 500 kept), and
// a tool that requires task execution shows its task's status on its step and in its task's
// ledger, completes, and is cancelled by Stop.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { everything, NODE, testServer } from '../support/mcpFixtures';
import { makeTempDir, removeDir } from '../support/tempDir';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

const SIGN_IN_ON_CALL = fileURLToPath(new URL('../support/mcp/signInOnCallServer.mjs', import.meta.url));

const turns = turnQueue({ title: () => 'MCP steps' });
let root = '';
let remote: ChildProcess | undefined;

async function startRemote(): Promise<string> {
  const child = spawn(NODE, [SIGN_IN_ON_CALL], { stdio: ['ignore', 'pipe', 'inherit'] });
  remote = child;
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`sign-in test server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

const { app } = appPerFile({
  name: 'mcpSteps',
  server: { script: turns.script },
  prepare: async () => {
    root = makeTempDir('stepwise-mcp-steps-e2e-');
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    // Configured before the first start: both count as allowed.
    fs.writeFileSync(
      path.join(dataDir, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          test: testServer({ trusted: true }),
          remote: { url: await startRemote(), trusted: true },
          everything: everything({ trusted: true }),
        },
      }),
    );
    return { dataDir, planReview: false };
  },
  afterClose: () => {
    remote?.kill('SIGTERM');
    if (root) removeDir(root);
  },
});

async function ask(text: string) {
  const page = app.page;
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

describe('MCP steps and logs', () => {
  it('a step whose server wants a sign-in offers Sign in, which starts it', async () => {
    const page = app.page;
    turns.push({ toolCalls: [{ id: 'call_who', name: 'mcp__remote__whoami', arguments: '{}' }] }, { text: 'Noted.' });
    await ask('Who am I?');
    await page.getByText('Noted.').waitFor({ timeout: 60_000 });
    const signIn = page.getByRole('group', { name: 'Sign-in to remote' });
    await signIn.getByRole('button', { name: 'Sign in to remote' }).click();
    // This server publishes no authorization server: the sign-in ends with the reason and a retry.
    await signIn.getByRole('button', { name: 'Try signing in to remote again' }).waitFor({ timeout: 60_000 });
    expect(await signIn.getByRole('alert').textContent()).toMatch(/^Signing in to remote failed/);
  });

  it("a flood of log lines is kept to the last 500, readable from the server's card", async () => {
    const page = app.page;
    turns.push(
      { toolCalls: [{ id: 'call_flood', name: 'mcp__test__log_flood', arguments: '{"count":2000}' }] },
      { text: 'Logged.' },
    );
    await ask('Log a lot.');
    await page.getByText('Logged.').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'Tools (MCP)' }).click();
    const card = page.getByRole('article', { name: 'MCP server test' });
    await card.getByText('Log', { exact: true }).click();
    const log = card.getByRole('region', { name: 'Log of test' });
    const lines = log.getByRole('listitem');
    await log.getByText('line 2000', { exact: true }).waitFor();
    expect(await lines.count()).toBe(500);
    expect(await lines.first().textContent()).toContain('line 1501');
    expect(await lines.last().textContent()).toContain('line 2000');
    expect(await log.getByText('1500 older ones were let go').count()).toBe(1);
    await page.getByRole('button', { name: 'Close settings' }).click();
  });

  it("a tool that runs as an MCP task shows the task's status on its step, then its result", async () => {
    const page = app.page;
    const research = (id: string, topic: string) => ({
      toolCalls: [{ id, name: 'mcp__everything__simulate-research-query', arguments: JSON.stringify({ topic }) }],
    });
    // The call is made while task 1 of the list is in progress: its ledger shows the status too.
    const todoList = [{ id: 1, title: 'Research tides', status: 'in_progress' }];
    turns.push(
      { toolCalls: [{ id: 'call_plan', name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] },
      research('call_tides', 'tides'),
      { text: 'Researched.' },
    );
    await ask('Research tides.');
    const status = page.getByRole('status', { name: 'Task status' });
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toMatch(/^Task working: /);
    const tasks = page.getByRole('region', { name: 'Tasks', exact: true });
    const toggle = tasks.getByRole('button', { name: /^(Expand|Collapse) task list$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const row1 = tasks
      .getByRole('list', { name: 'Task list' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: /^Task 1, / }) });
    const ledgerStatus = row1.getByRole('status', { name: 'MCP tasks of task 1' });
    await expect
      .poll(() => ledgerStatus.textContent(), { timeout: 60_000 })
      .toMatch(/^mcp__everything__simulate-research-query: working/);
    await page.getByText('Researched.').waitFor({ timeout: 60_000 });
    await page.getByText('Tool call mcp__everything__simulate-research-query, done').waitFor();
    expect(await status.count()).toBe(0);
    // Ended: the ledger counts the call instead.
    await row1.getByRole('button', { name: '1 tool call', exact: true }).waitFor();
    expect(await ledgerStatus.count()).toBe(0);

    // Stop while the next task works: the call reads cancelled.
    turns.push(research('call_waves', 'waves'));
    await ask('Research waves.');
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toMatch(/^Task working: /);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByText('Tool call mcp__everything__simulate-research-query, cancelled').waitFor();
  });

  it('audio content from a tool plays in its card, as does an embedded audio resource', async () => {
    const page = app.page;
    turns.push({ toolCalls: [{ id: 'call_chime', name: 'mcp__test__chime', arguments: '{}' }] }, { text: 'Chimed.' });
    await ask('Play a chime.');
    await page.getByText('Chimed.').waitFor({ timeout: 60_000 });
    await page.locator('summary').filter({ hasText: 'Tool call mcp__test__chime' }).click();
    for (const name of ['Audio 1', 'test://chime.wav']) {
      const figure = page.getByRole('figure', { name });
      const player = figure.getByLabel(`Play ${name}`);
      // The page's policy lets the player load the bytes: its length is known (a 0.2 s tone).
      await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeCloseTo(0.2, 2);
      await figure.getByRole('link', { name: /^Download .*audio\/wav/ }).waitFor();
    }
  });

  it('a server prompt that holds a conversation is sent as it is, roles kept, and answered', async () => {
    const page = app.page;
    let roles: string[] = [];
    turns.push((body) => {
      roles = body.messages.map((m) => String(m.role));
      return { text: 'Reviewed the parser.' };
    });
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('/review');
    await page.getByRole('option', { name: /\/review-dialogue\s*test/ }).click({ timeout: 60_000 });
    await page.getByText('Reviewed the parser.').waitFor({ timeout: 60_000 });
    await page
      .getByRole('article', { name: 'Assistant message' })
      .getByText('Which language is it written in?')
      .waitFor();
    await page.getByText('TypeScript, with no dependencies.').waitFor();
    expect(roles).toEqual(['system', 'user', 'assistant', 'user']);
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
  });
});
