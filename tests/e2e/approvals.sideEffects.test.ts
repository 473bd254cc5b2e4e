// A side effect is never orphaned, end to end with the real filesystem MCP server: while
// a write_file call waits for Allow once, the user deletes its task in the header (or
// Reject changes takes the task away in Every plan mode). Allow once then writes the
// file, the card shows the result naming "deleted task N", and the model's next request
// carries it; Deny leaves no file and tells the model the call did not run.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ChatBody } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';
import { filesystem, writeMcpConfig } from '../support/mcpFixtures';
import { makeDataDir } from './support/app';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
import { expandTaskList, taskRowNames, tasksRegion } from './support/taskList';

let workDir: string;
let dataDir: string;
const turns = turnQueue({ title: () => 'Side effects' });
const page = (): Page => app.page;
const approval = () => page().getByRole('group', { name: 'Approve mcp__fs__write_file' });
const sentResult = (body: ChatBody, callId: string) =>
  String(body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId)?.content);

type Status = 'pending' | 'in_progress' | 'completed';
const todo = (tasks: Array<[string, Status]>) => ({
  name: 'manage_todo_list',
  arguments: JSON.stringify({ todoList: tasks.map(([title, status], i) => ({ id: i + 1, title, status })) }),
});
const write = (id: string, file: string, content: string) => ({
  id,
  name: 'mcp__fs__write_file',
  arguments: JSON.stringify({ path: file, content }),
});

const { app } = appPerFile({
  name: 'side-effects',
  server: { script: turns.script },
  prepare: () => {
    workDir = fs.realpathSync(makeTempDir('stepwise-side-effects-e2e-'));
    dataDir = makeDataDir();
    writeMcpConfig(dataDir, { fs: filesystem(workDir) });
    // The subject is the tool approval of a planned call: plan review is off unless a test picks a mode.
    return { dataDir, planReview: false };
  },
  afterClose: () => {
    if (workDir) removeDir(workDir);
    if (dataDir) removeDir(dataDir);
  },
});

async function send(text: string) {
  await page().getByRole('button', { name: 'New conversation', exact: true }).click();
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().getByRole('button', { name: 'Send', exact: true }).click();
}

/** Deletes the task at `place` from its row's menu in the header and waits until its row (by title) is gone. */
async function deleteTask(place: number, title: string) {
  await expandTaskList(page());
  await tasksRegion(page())
    .getByRole('button', { name: `Actions for task ${place}`, exact: true })
    .click();
  await page().getByRole('menuitem', { name: 'Delete', exact: true }).click();
  await expect.poll(async () => (await taskRowNames(page())).some((n) => n?.includes(title))).toBe(false);
}

/** The write's card, opened: its Result section's text. */
async function cardResult(state: string): Promise<string> {
  const summary = page()
    .locator('summary')
    .filter({ hasText: `Tool call mcp__fs__write_file, ${state}` });
  await summary.waitFor({ timeout: 15_000 });
  await summary.click();
  const details = page().locator('details', { has: summary });
  // The body is drawn on the toggle event, a task after the click: wait for the result.
  await details.locator('pre').nth(1).waitFor();
  return (await details.locator('pre').allInnerTexts())[1];
}

describe('the task of a waiting write is deleted', () => {
  it('Allow once writes the file; the card shows the result and the model gets it', async () => {
    const target = path.join(workDir, 'notes.txt');
    const seen: ChatBody[] = [];
    turns.push(
      {
        toolCalls: [
          todo([
            ['Write the notes', 'in_progress'],
            ['Check them', 'pending'],
          ]),
        ],
      },
      { toolCalls: [write('call_notes', target, 'milk')] },
      (body) => {
        seen.push(body);
        return { text: 'Notes written.' };
      },
    );
    await send('Write my notes to notes.txt.');
    await approval().waitFor({ timeout: 20_000 });
    await deleteTask(1, 'Write the notes');
    await approval().getByRole('button', { name: 'Allow once' }).click();

    await page().getByText('Notes written.').waitFor({ timeout: 20_000 });
    expect(fs.readFileSync(target, 'utf8')).toBe('milk');
    const shown = await cardResult('done');
    expect(shown).toContain(`Successfully wrote to ${target}`);
    expect(shown).toContain('It was made for deleted task 1');
    expect(sentResult(seen[0], 'call_notes')).toContain(`Successfully wrote to ${target}`);
    expect(sentResult(seen[0], 'call_notes')).toContain('It was made for deleted task 1');
    expect(await page().getByText('Something went wrong while replying', { exact: false }).count()).toBe(0);
  });

  it('Deny writes nothing and the model reads that the call did not run', async () => {
    const target = path.join(workDir, 'denied.txt');
    const seen: ChatBody[] = [];
    turns.push(
      {
        toolCalls: [
          todo([
            ['Write the file', 'in_progress'],
            ['Check it', 'pending'],
          ]),
        ],
      },
      { toolCalls: [write('call_denied', target, 'nothing')] },
      (body) => {
        seen.push(body);
        return { text: 'Left it alone.' };
      },
    );
    await send('Write denied.txt.');
    await approval().waitFor({ timeout: 20_000 });
    await deleteTask(1, 'Write the file');
    await approval().getByRole('button', { name: 'Deny' }).click();

    await page().getByText('Left it alone.').waitFor({ timeout: 20_000 });
    expect(fs.existsSync(target)).toBe(false);
    const text = 'The user deleted task 1 before this call was allowed, then denied it; it did not run.';
    expect(await cardResult('denied')).toBe(text);
    expect(sentResult(seen[0], 'call_denied')).toBe(text);
  });
});

describe('Reject changes while a write waits (Every plan)', () => {
  it('takes away the task the write was made for; Allow once still writes and the model gets the result', async () => {
    const target = path.join(workDir, 'room.txt');
    turns.push(
      {
        toolCalls: [
          todo([
            ['Read the brief', 'pending'],
            ['Book a room', 'pending'],
          ]),
        ],
      },
      { text: 'Plan ready.' },
    );
    await send('Book me a room.');
    await page().getByText('Plan ready.').waitFor({ timeout: 20_000 });
    const mode = page().getByRole('combobox', { name: 'Review plans' });
    await mode.selectOption('every_plan');
    await expect.poll(() => mode.inputValue()).toBe('every_plan');
    const card = page().getByRole('region', { name: 'Review the plan' });
    await card.waitFor({ timeout: 20_000 });

    const seen: ChatBody[] = [];
    turns.push(
      {
        toolCalls: [
          todo([
            ['Read the brief', 'completed'],
            ['Book a room', 'pending'],
            ['Pick a floor', 'in_progress'],
          ]),
          write('call_room', target, 'room 4'),
        ],
      },
      (body) => {
        seen.push(body);
        return { text: 'Room booked.' };
      },
    );
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    const amendment = page().getByRole('region', { name: 'Proposed change to the plan' });
    await amendment.getByText('Added task 3 “Pick a floor”').waitFor({ timeout: 20_000 });
    await amendment.getByRole('button', { name: 'Reject changes' }).click();
    await expect.poll(async () => (await taskRowNames(page())).some((n) => n?.includes('Pick a floor'))).toBe(false);
    await approval().getByRole('button', { name: 'Allow once' }).click({ timeout: 20_000 });

    await page().getByText('Room booked.').waitFor({ timeout: 20_000 });
    expect(fs.readFileSync(target, 'utf8')).toBe('room 4');
    const shown = await cardResult('done');
    expect(shown).toContain(`Successfully wrote to ${target}`);
    expect(shown).toContain('It was made for deleted task 3');
    expect(sentResult(seen[0], 'call_room')).toContain('It was made for deleted task 3');
  });
});
