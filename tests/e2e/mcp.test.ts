// MCP end to end in Chromium: the filesystem server configured in Settings → Tools (MCP)
// (it starts disabled, showing its exact command line), a plan of two tasks, an
// approval banner and "Allow once" for list_directory (the result reaches the model),
// "Deny" for a write (the denial reaches the model, the file is not written), and no
// server process left once the host has exited.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ChatBody } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';
import { FILESYSTEM_BIN, NODE } from '../support/mcpFixtures';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

let workDir: string;
const turns = turnQueue({ title: () => 'Tidy the notes' });

/** Processes whose command line mentions `needle` (the temp dir only our server names). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe-core violations on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Violation = { id: string; impact: string | null; nodes: Array<{ target: string[] }> };
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

const lastTool = (body: ChatBody) => body.messages.findLast((m) => m.role === 'tool');

const { app } = appPerFile({
  name: 'mcp',
  server: { script: turns.script },
  prepare: () => {
    workDir = fs.realpathSync(makeTempDir('stepwise-mcp-e2e-'));
    fs.writeFileSync(path.join(workDir, 'notes.txt'), 'remember the milk\n');
    // The subject is the approval of calls that change things, made without a plan: plan
    // review (which would hold them until a plan is approved) is off here.
    return { planReview: false };
  },
  afterClose: () => {
    if (workDir) removeDir(workDir);
  },
});

describe('MCP tools with approvals', () => {
  it('configures the filesystem server in Settings; it starts disabled and shows its command', async () => {
    const page = app.page;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'Tools (MCP)' }).click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('form', { name: 'Add MCP server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('fs');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(NODE);
    await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill(`${FILESYSTEM_BIN}\n${workDir}`);
    await form.getByRole('button', { name: 'Save server' }).click();

    const card = page.getByRole('article', { name: 'MCP server fs' });
    await card.waitFor();
    await expect.poll(() => card.getByRole('status').textContent()).toBe('disabled');
    expect(await card.locator('code').first().textContent()).toBe(`${NODE} ${FILESYSTEM_BIN} ${workDir}`);
    await card.getByRole('checkbox', { name: 'Enable fs' }).click();
    await expect.poll(() => card.getByRole('checkbox', { name: 'Enable fs' }).isChecked()).toBe(true);
    const saved = JSON.parse(fs.readFileSync(path.join(app.dataDir, 'mcp.json'), 'utf8'));
    expect(saved.mcpServers.fs).toMatchObject({ command: NODE, args: [FILESYSTEM_BIN, workDir] });
    expect(saved.mcpServers.fs.disabled).toBe(false);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close settings' }).click();
  });

  it('asks before each call: Allow once runs it, Deny tells the model', async () => {
    const page = app.page;
    const plan = {
      toolCalls: [
        {
          name: 'manage_todo_list',
          arguments: JSON.stringify({
            todoList: [
              { id: 1, title: 'Look at the notes', status: 'in_progress' },
              { id: 2, title: 'Write a summary', status: 'pending' },
            ],
          }),
        },
      ],
    };
    const seen: ChatBody[] = [];
    turns.push(
      plan,
      {
        toolCalls: [{ id: 'call_list', name: 'mcp__fs__list_directory', arguments: JSON.stringify({ path: workDir }) }],
      },
      (body) => {
        seen.push(body);
        const target = path.join(workDir, 'summary.txt');
        return {
          toolCalls: [
            {
              id: 'call_write',
              name: 'mcp__fs__write_file',
              arguments: JSON.stringify({ path: target, content: 'milk' }),
            },
          ],
        };
      },
      (body) => {
        seen.push(body);
        return { text: 'I could not write the summary.' };
      },
    );
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Look at my notes and write a summary.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    // The call is answered in one place: on its card, in view (no banner beside it), with a
    // one-line summary and the arguments one click away.
    const banner = page.getByRole('region', { name: 'Question from Assistant' });
    const listCard = page.getByRole('group', { name: 'Approve mcp__fs__list_directory' });
    await listCard.getByRole('button', { name: 'Allow once', exact: true }).waitFor({ timeout: 20_000 });
    for (const name of ['Allow once', 'Always allow', 'Deny']) {
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(1);
    }
    expect(await banner.count()).toBe(0);
    expect(await listCard.locator('pre').isVisible()).toBe(false);
    await listCard.getByText('Arguments', { exact: true }).click();
    expect(await listCard.locator('pre').innerText()).toContain(path.basename(workDir));
    expect(await violations(page)).toEqual([]);
    await listCard.getByRole('button', { name: 'Allow once' }).click();

    const writeCard = page.getByRole('group', { name: 'Approve mcp__fs__write_file' });
    await writeCard.getByRole('button', { name: 'Deny', exact: true }).waitFor({ timeout: 20_000 });
    // The listing reached the model's next request.
    expect(lastTool(seen[0])).toMatchObject({ tool_call_id: 'call_list' });
    expect(String(lastTool(seen[0])!.content)).toContain('[FILE] notes.txt');
    // The call ran while task 1 was in progress: its row counts it.
    const tasks = page.getByRole('region', { name: 'Tasks', exact: true });
    const toggle = tasks.getByRole('button', { name: /^(Expand|Collapse) task list$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const row1 = tasks
      .getByRole('list', { name: 'Task list' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: /^Task 1, / }) });
    await row1.getByRole('button', { name: '1 tool call', exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Allow once', exact: true }).count()).toBe(1);
    await writeCard.getByRole('button', { name: 'Deny' }).click();

    await page.getByText('I could not write the summary.').waitFor({ timeout: 20_000 });
    expect(lastTool(seen[1])).toMatchObject({
      tool_call_id: 'call_write',
      content: 'The user denied this call; it did not run.',
    });
    expect(fs.existsSync(path.join(workDir, 'summary.txt'))).toBe(false);
    await expect.poll(() => banner.count()).toBe(0);
    expect(await page.getByText('denied', { exact: true }).count()).toBe(1);
    // The denied call is in task 1's ledger too.
    await row1.getByRole('button', { name: '2 tool calls', exact: true }).waitFor({ timeout: 15_000 });
  });

  it('leaves no server process behind once the host has exited', async () => {
    expect(processesMentioning(workDir).length).toBeGreaterThan(0);
    await app.close();
    expect(processesMentioning(workDir)).toEqual([]);
  });
});
