// Plan review end to end in Chromium, with the real filesystem MCP server on a temp dir
// and review on "Before tools that change things" (the default): a write during planning
// is held in code (no file, no approval prompt) and the review card lists it as waiting
// for approval; the user edits and comments on the plan and requests changes, approves
// the revision, the model makes the write again and the user allows it once; the JSON
// export holds both revisions.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELD_FOR_PLAN } from '../../src/main/core/plans/planGate';
import { ConversationExport } from '../../src/shared/exportFormat';
import { type ChatBody } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';
import { filesystem, writeMcpConfig } from '../support/mcpFixtures';
import { makeDataDir } from './support/app';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
import { violations } from './support/axe';
import { exportConversation, PLUMBING_PREFIXES, youSections } from './support/exportConversation';

let workDir: string;
let dataDir: string;
const turns = turnQueue({ title: () => 'Quarterly summary' });
const seen: ChatBody[] = [];
const page = () => app.page;
const card = () => page().getByRole('region', { name: 'Review the plan' });
const lastTool = (body: ChatBody) => body.messages.findLast((m) => m.role === 'tool');
const lastUser = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
const todo = (titles: string[]) => ({
  name: 'manage_todo_list',
  arguments: JSON.stringify({ todoList: titles.map((title, i) => ({ id: i + 1, title, status: 'pending' })) }),
});

const { app } = appPerFile({
  name: 'plan-review',
  server: { script: turns.script },
  prepare: () => {
    workDir = fs.realpathSync(makeTempDir('stepwise-plan-e2e-'));
    dataDir = makeDataDir();
    writeMcpConfig(dataDir, { fs: filesystem(workDir) });
    return { dataDir, planReview: true };
  },
  afterClose: () => {
    if (workDir) removeDir(workDir);
    if (dataDir) removeDir(dataDir);
  },
});

describe('plan review', () => {
  const target = () => path.join(workDir, 'summary.txt');

  it('holds a write during planning in code: no file, no approval prompt; the card shows it waiting', async () => {
    turns.push(
      {
        toolCalls: [
          todo(['Collect the figures', 'Draft the summary', 'Email the team']),
          {
            id: 'call_early',
            name: 'mcp__fs__write_file',
            arguments: JSON.stringify({ path: target(), content: 'draft' }),
          },
        ],
      },
      (body) => {
        seen.push(body);
        return { text: 'Here is my plan.' };
      },
    );
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Write the quarterly summary to summary.txt.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await card().waitFor({ timeout: 20_000 });
    expect(lastTool(seen[0])).toMatchObject({ tool_call_id: 'call_early', content: HELD_FOR_PLAN });
    expect(fs.existsSync(target())).toBe(false);
    expect(await page().getByRole('group', { name: 'Approve mcp__fs__write_file' }).count()).toBe(0);
    expect(await page().getByRole('region', { name: 'Question from Assistant' }).count()).toBe(0);
    // The card lists the held call, its arguments one click away.
    const waiting = card().getByText('Waiting for your approval: fs · write_file (1 call)');
    await waiting.click();
    expect(await card().getByLabel('Arguments of fs · write_file').textContent()).toContain('"content": "draft"');
    // The held call reads "Held for plan review", never failed; the card passes axe.
    expect(await page().getByText('Held for plan review', { exact: true }).count()).toBe(1);
    expect(await page().getByText('failed', { exact: true }).count()).toBe(0);
    expect(await violations(page())).toEqual([]);
  });

  it('Request changes sends the rename, the deletion and the comment', async () => {
    turns.push(
      (body) => {
        seen.push(body);
        return { toolCalls: [todo(['Collect the Q3 figures', 'Draft a one-page summary'])] };
      },
      { text: 'Revised the plan.' },
    );
    await card().getByRole('button', { name: 'Actions for task 2', exact: true }).click();
    await page().getByRole('menuitem', { name: 'Rename', exact: true }).click();
    const rename = card().getByRole('textbox', { name: 'Rename task 2' });
    await rename.fill('Draft a one-page summary');
    await rename.press('Enter');
    await card()
      .getByRole('button', { name: /^Task 2, pending: Draft a one-page summary/ })
      .waitFor();
    await card().getByRole('button', { name: 'Actions for task 3', exact: true }).click();
    await page().getByRole('menuitem', { name: 'Delete', exact: true }).click();
    await expect
      .poll(() =>
        card()
          .getByRole('button', { name: /^Task 3, / })
          .count(),
      )
      .toBe(0);
    await card().getByRole('button', { name: 'Comment on task 1', exact: true }).click();
    const comment = card().getByRole('textbox', { name: 'Comment on task 1' });
    await comment.fill('Only Q3, please.');
    await comment.press('Enter');
    await card().getByRole('button', { name: 'Edit comment on task 1' }).waitFor();
    await card().getByRole('button', { name: 'Request changes', exact: true }).click();

    await page().getByRole('article', { name: 'Changes requested' }).waitFor({ timeout: 20_000 });
    await page().getByText('Revised the plan.').waitFor({ timeout: 20_000 });
    const request = lastUser(seen[1]);
    expect(request).toContain('Renamed task 2 from “Draft the summary” to “Draft a one-page summary”');
    expect(request).toContain('Deleted task 3 “Email the team”');
    expect(request).toContain('On task 1 “Collect the figures”: Only Q3, please.');
  });

  it('Approve stores revision 2 and the agent goes on; the write reaches Allow once', async () => {
    turns.push(
      (body) => {
        seen.push(body);
        return {
          toolCalls: [
            {
              id: 'call_write',
              name: 'mcp__fs__write_file',
              arguments: JSON.stringify({ path: target(), content: 'Q3 summary' }),
            },
          ],
        };
      },
      { text: 'Wrote the summary.' },
    );
    await card()
      .getByRole('button', { name: /^Task 1, pending: Collect the Q3 figures/ })
      .waitFor({ timeout: 20_000 });
    await card().getByRole('button', { name: 'Approve', exact: true }).click();
    await page().getByText('Plan approved · 2 tasks · revision 2').waitFor({ timeout: 20_000 });

    const approval = page().getByRole('group', { name: 'Approve mcp__fs__write_file' });
    await approval.getByRole('button', { name: 'Allow once' }).click({ timeout: 20_000 });
    // The request that made the call carried the quiet approval message, naming the held call.
    expect(lastUser(seen[2])).toContain('The user approved the plan');
    expect(lastUser(seen[2])).toContain('- mcp__fs__write_file (1 call)');
    await page().getByText('Wrote the summary.').waitFor({ timeout: 20_000 });
    expect(fs.readFileSync(target(), 'utf8')).toBe('Q3 summary');
    expect(await card().count()).toBe(0);
  });

  it('the JSON export holds both revisions and validates against the schema', async () => {
    const sidebar = page().getByRole('complementary', { name: 'Conversations' });
    await sidebar.getByRole('button', { name: 'Actions for Quarterly summary' }).click();
    await page()
      .getByRole('menu', { name: 'Actions for Quarterly summary' })
      .getByRole('menuitem', { name: 'Export conversation…' })
      .click();
    const dialog = page().getByRole('dialog', { name: 'Export conversation' });
    await dialog.getByRole('radio', { name: /JSON/ }).check();
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export' }).click(),
    ]);
    const file = path.join(dataDir, download.suggestedFilename());
    await download.saveAs(file);
    const data = ConversationExport.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(data.planRevisions?.map((r) => [r.revision, r.approvedAt !== null, r.tasks.map((t) => t.title)])).toEqual([
      [1, false, ['Collect the figures', 'Draft a one-page summary']],
      [2, true, ['Collect the Q3 figures', 'Draft a one-page summary']],
    ]);
    expect(data.planRevisions?.[0].comments.tasks).toEqual([{ taskId: 1, text: 'Only Q3, please.' }]);
  });

  it('after the review round neither export holds a control prefix; Markdown has only what the user wrote as "You"', async () => {
    const json = await exportConversation(page(), 'Quarterly summary', 'json', dataDir);
    const markdown = await exportConversation(page(), 'Quarterly summary', 'md', dataDir);
    expect(json).not.toMatch(PLUMBING_PREFIXES);
    expect(markdown).not.toMatch(PLUMBING_PREFIXES);
    const typed = ConversationExport.parse(JSON.parse(json))
      .messages.filter((m) => m.role === 'user' && m.kind === 'user')
      .map((m) => m.content.trim());
    expect(typed).toEqual(['Write the quarterly summary to summary.txt.']);
    expect(youSections(markdown)).toEqual(typed);
    // The round shows as quiet lines.
    expect(markdown).toMatch(/^_Changes requested/m);
    expect(markdown).toMatch(/^_Plan approved/m);
  });

  it('a task the model adds after approval applies, with a Plan changed line that opens to before and after', async () => {
    turns.push(
      { toolCalls: [todo(['Collect the Q3 figures', 'Draft a one-page summary', 'Proofread it'])] },
      { text: 'Added a step.' },
    );
    await page().getByRole('textbox', { name: 'Message' }).fill('Add a proofreading step.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    const line = page().getByRole('article', { name: 'Plan changed' });
    await line.getByText('Plan changed: Added task 3 “Proofread it” (revision 3)').click({ timeout: 20_000 });
    await line.getByRole('heading', { name: 'Before' }).waitFor();
    expect(await line.getByRole('listitem').allTextContents()).toEqual([
      'Collect the Q3 figures',
      'Draft a one-page summary',
      'Collect the Q3 figures',
      'Draft a one-page summary',
      'Proofread it',
    ]);
    expect(await card().count()).toBe(0);
  });
});

describe('plan review, a worker', () => {
  it("a worker's write waits for the plan's approval; the card opens in the parent and lists it", async () => {
    const target = path.join(workDir, 'worker.txt');
    const isWorker = (body: ChatBody) => /<task>\n/.test(String(body.messages[0]?.content ?? ''));
    const route = (body: ChatBody) => {
      if (isWorker(body)) {
        if (body.messages.at(-1)?.role === 'tool') return { text: 'Worker wrote it.' };
        return {
          toolCalls: [
            { id: 'call_w', name: 'mcp__fs__write_file', arguments: JSON.stringify({ path: target, content: 'w' }) },
          ],
        };
      }
      if (lastUser(body).startsWith('PLAN_APPROVED')) return { text: 'Approved; the worker goes on.' };
      if (/^(Task 1 was completed by worker|Worker 1)/.test(lastUser(body))) return { text: 'The worker finished.' };
      if (body.messages.at(-1)?.role === 'tool') return { text: 'A worker is on it.' };
      return {
        toolCalls: [
          todo(['Write the file']),
          { name: 'start_task', arguments: JSON.stringify({ task_description: 'Write worker.txt', taskId: 1 }) },
        ],
      };
    };
    // Six requests: the plan and the start, the main agent's reply, the worker's call, the
    // approved turn, the worker's answer, the main agent's reply to the result.
    turns.push(...Array.from({ length: 6 }, () => route));
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Have a worker write worker.txt.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await card()
      .getByText('Waiting for your approval: fs · write_file (1 call) · worker 1')
      .waitFor({ timeout: 20_000 });
    await page()
      .getByRole('navigation', { name: 'Workers' })
      .getByRole('button', { name: /^Worker 1, waiting for plan approval/ })
      .waitFor();
    expect(fs.existsSync(target)).toBe(false);
    await card().getByRole('button', { name: 'Approve', exact: true }).click();
    // The worker's call goes on to its own approval, asked in the parent's banner.
    const banner = page().getByRole('region', { name: 'Question from Worker 1' });
    await banner.getByRole('button', { name: 'Allow once', exact: true }).click({ timeout: 20_000 });
    await page().getByText('The worker finished.').waitFor({ timeout: 20_000 });
    expect(fs.readFileSync(target, 'utf8')).toBe('w');
    expect(turns.pending()).toBe(0);
  });
});

describe('plan review, Every plan', () => {
  it('holds a task the model adds after approval; the write waits until Approve changes', async () => {
    const target = path.join(workDir, 'notes.txt');
    turns.push({ toolCalls: [todo(['Read the brief', 'Write the notes'])] }, { text: 'Plan ready.' });
    await page().getByRole('button', { name: 'New conversation', exact: true }).click();
    await page().getByRole('textbox', { name: 'Message' }).fill('Write my notes to notes.txt.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    // Before tools that change things, a plan without a held call asks for no review…
    await page().getByText('Plan ready.').waitFor({ timeout: 20_000 });
    expect(await card().count()).toBe(0);
    // …while Every plan reviews every list.
    await page().getByRole('combobox', { name: 'Review plans' }).selectOption('every_plan');
    await expect.poll(() => page().getByRole('combobox', { name: 'Review plans' }).inputValue()).toBe('every_plan');
    await card().waitFor({ timeout: 20_000 });

    turns.push(
      {
        toolCalls: [
          todo(['Read the brief', 'Write the notes', 'Check the spelling']),
          {
            id: 'call_notes',
            name: 'mcp__fs__write_file',
            arguments: JSON.stringify({ path: target, content: 'notes' }),
          },
        ],
      },
      { text: 'Notes written.' },
    );
    await card().getByRole('button', { name: 'Approve', exact: true }).click();
    const amendment = page().getByRole('region', { name: 'Proposed change to the plan' });
    await amendment.getByText('Added task 3 “Check the spelling”').waitFor({ timeout: 20_000 });
    expect(await violations(page())).toEqual([]);
    // The write waits for the answer, and says so: no approval prompt, no file.
    await page().getByText('waiting for you to approve the change to the plan').waitFor({ timeout: 20_000 });
    expect(await page().getByRole('group', { name: 'Approve mcp__fs__write_file' }).count()).toBe(0);
    expect(fs.existsSync(target)).toBe(false);

    await amendment.getByRole('button', { name: 'Approve changes' }).click();
    const approval = page().getByRole('group', { name: 'Approve mcp__fs__write_file' });
    await approval.getByRole('button', { name: 'Allow once' }).click({ timeout: 20_000 });
    await page().getByText('Notes written.').waitFor({ timeout: 20_000 });
    expect(fs.readFileSync(target, 'utf8')).toBe('notes');
    expect(await amendment.count()).toBe(0);
    // The answer left its line in the transcript, with the change under it.
    await page().getByText('Plan change approved · revision 2').waitFor();
    expect(await page().getByText('Added task 3 “Check the spelling”').count()).toBeGreaterThanOrEqual(1);
  });

  it('a held call is released when the user deletes the added task instead of answering', async () => {
    const target = path.join(workDir, 'print.txt');
    turns.push(
      {
        toolCalls: [
          todo(['Read the brief', 'Write the notes', 'Check the spelling', 'Print them']),
          { id: 'call_print', name: 'mcp__fs__write_file', arguments: JSON.stringify({ path: target, content: 'p' }) },
        ],
      },
      { text: 'Printed.' },
    );
    await page().getByRole('textbox', { name: 'Message' }).fill('Print the notes too.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    const amendment = page().getByRole('region', { name: 'Proposed change to the plan' });
    await amendment.getByText('Added task 4 “Print them”').waitFor({ timeout: 20_000 });
    await page().getByText('waiting for you to approve the change to the plan').waitFor();
    const tasks = page().getByRole('region', { name: 'Tasks' });
    // The list folds away while the agent works: open it to edit.
    await tasks.getByRole('button', { name: 'Expand task list' }).click();
    await tasks.getByRole('button', { name: 'Actions for task 4', exact: true }).click();
    await page().getByRole('menuitem', { name: 'Delete', exact: true }).click();
    // The difference is gone: the call goes on to its own approval.
    const approval = page().getByRole('group', { name: 'Approve mcp__fs__write_file' });
    await approval.getByRole('button', { name: 'Allow once' }).click({ timeout: 20_000 });
    await page().getByText('Printed.').waitFor({ timeout: 20_000 });
    expect(fs.readFileSync(target, 'utf8')).toBe('p');
    expect(await amendment.count()).toBe(0);
  });

  it('Approve changes from a stale view is refused, applies nothing, and the view redraws', async () => {
    // A second tab whose pushed events the test can hold back: its view goes stale.
    let holding = false;
    const held: Array<string | Buffer> = [];
    let toPage: { send(message: string | Buffer): void } | null = null;
    await app.context.routeWebSocket(/./, (ws) => {
      toPage = ws;
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (holding && /"event":"(tasks:changed|plan:state)"/.test(String(message))) held.push(message);
        else ws.send(message);
      });
    });
    const other = await app.openPage();
    await other.goto(page().url());
    const target = path.join(workDir, 'proof.txt');
    turns.push(
      {
        toolCalls: [
          todo(['Read the brief', 'Write the notes', 'Check the spelling', 'Proofread']),
          { id: 'call_proof', name: 'mcp__fs__write_file', arguments: JSON.stringify({ path: target, content: 'ok' }) },
        ],
      },
      { text: 'Proofread.' },
    );
    await page().getByRole('textbox', { name: 'Message' }).fill('Proofread the notes.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    const stale = other.getByRole('region', { name: 'Proposed change to the plan' });
    await stale.getByText('Added task 4 “Proofread”').waitFor({ timeout: 20_000 });

    // The first tab renames the added task; the second does not hear of it.
    holding = true;
    const tasks = page().getByRole('region', { name: 'Tasks' });
    await tasks.getByRole('button', { name: 'Actions for task 4', exact: true }).click();
    await page().getByRole('menuitem', { name: 'Rename', exact: true }).click();
    const rename = tasks.getByRole('textbox', { name: 'Rename task 4' });
    await rename.fill('Proofread twice');
    await rename.press('Enter');
    const amendment = page().getByRole('region', { name: 'Proposed change to the plan' });
    await amendment.getByText('Added task 4 “Proofread twice”').waitFor({ timeout: 20_000 });

    await stale.getByRole('button', { name: 'Approve changes' }).click();
    await other.getByText('The plan changed while you were reviewing it').waitFor({ timeout: 20_000 });
    // Nothing applied: no new revision, no line, and the write still waits.
    expect(await page().getByText('Plan change approved · revision 3').count()).toBe(0);
    expect(fs.existsSync(target)).toBe(false);
    await page().getByText('waiting for you to approve the change to the plan').waitFor();
    // The stale view hears the news and redraws.
    holding = false;
    for (const message of held.splice(0)) toPage!.send(message);
    await stale.getByText('Added task 4 “Proofread twice”').waitFor({ timeout: 20_000 });
    await other.close();

    await amendment.getByRole('button', { name: 'Approve changes' }).click();
    // The approval's line comes below the card, and the list follows it down: a click on the
    // card before the line is drawn can be pressed at one place and released at another.
    await page().getByText('Plan change approved · revision 3').waitFor({ timeout: 20_000 });
    const approval = page().getByRole('group', { name: 'Approve mcp__fs__write_file' });
    await approval.getByRole('button', { name: 'Allow once' }).click({ timeout: 20_000 });
    await page().getByText('Proofread.').waitFor({ timeout: 20_000 });
  });

  it('Reject changes puts the plan back and leaves "Plan change rejected" with the change', async () => {
    turns.push(
      { toolCalls: [todo(['Read the brief', 'Write the notes', 'Check the grammar'])] },
      { text: 'Renamed a step.' },
    );
    await page().getByRole('textbox', { name: 'Message' }).fill('Check the grammar instead.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    const amendment = page().getByRole('region', { name: 'Proposed change to the plan' });
    await amendment
      .getByText('Renamed task 3 from “Check the spelling” to “Check the grammar”')
      .waitFor({ timeout: 20_000 });
    await page().getByText('Renamed a step.').waitFor({ timeout: 20_000 });
    await amendment.getByRole('button', { name: 'Reject changes' }).click();
    await page().getByText('Plan change rejected').waitFor({ timeout: 20_000 });
    // The line and the card's removal may come in different frames: wait for the card to go.
    await amendment.waitFor({ state: 'detached' });
    await page()
      .getByRole('region', { name: 'Tasks' })
      .getByRole('button', { name: /^Task 3, .*Check the spelling/ })
      .waitFor();
  });

  it('Settings offers the default and a read-only switch per MCP server, saved with the server', async () => {
    await page().getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('link', { name: 'Agent' }).click();
    const review = page().getByRole('group', { name: 'Agent' }).getByRole('combobox', { name: 'Review plans' });
    expect(await review.inputValue()).toBe('before_acting');
    await page().getByRole('link', { name: 'Tools (MCP)' }).click();
    const server = page().getByRole('article', { name: 'MCP server fs' });
    const readOnly = server.getByRole('checkbox', { name: 'Read-only (usable while planning)' });
    expect(await readOnly.isChecked()).toBe(false);
    await readOnly.click();
    await expect.poll(() => readOnly.isChecked()).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'mcp.json'), 'utf8')).mcpServers.fs.readOnly).toBe(true);
    expect(await violations(page())).toEqual([]);
    await page().getByRole('button', { name: 'Close settings' }).click();
  });
});
