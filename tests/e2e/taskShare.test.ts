// Sharing task lists with another agent, end to end: the user turns sharing on in
// Settings, an external MCP client (the SDK's Client over Streamable HTTP) marks task 2
// completed, renames task 3 and moves it to the top; the header and the board show it with
// "Changed by test-client", the conversation's next request tells the model, and ticking
// a task on the board or in the header reaches the subscribed client as a resource update.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { callJson, closeClient, connectClient, freePort, parseConfiguration } from '../support/taskShareClient';
import { appPerFile } from './support/appPerFile';
import { taskRowList, taskRowNames } from './support/taskList';
import { nextSystemPrompt, sendSmallAppPlan, turnQueue } from './support/chatScript';

let client: Client | null = null;
let conversationId = '';
const turns = turnQueue({ title: () => 'Shared plan' });

const page = (): Page => app.page;
const rowList = () => taskRowList(page());
const rowNames = () => taskRowNames(page());

/** A task's row in the header, by its title (rows are numbered by place, which a reorder changes). */
const headerRow = (title: string) => rowList().getByRole('listitem').filter({ hasText: title });

const { app, server } = appPerFile({
  name: 'task-share',
  server: { script: turns.script },
  ready: () => sendSmallAppPlan(page(), turns, ['in_progress', 'pending', 'pending']),
  beforeClose: async () => {
    if (client) await closeClient(client);
  },
});

describe('sharing task lists with another agent', () => {
  it('turns sharing on in Settings at a chosen port', async () => {
    const port = await freePort();
    const sidebar = page().getByRole('complementary', { name: 'Conversations' });
    await sidebar.getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('link', { name: 'Sharing task lists' }).click();
    const section = page().getByRole('group', { name: 'Sharing task lists' });
    // Off, a new token disconnects nobody, and the message does not say it did.
    await section.getByRole('button', { name: 'Regenerate token', exact: true }).click();
    await page().getByText('New token made. Give your agents the new configuration.', { exact: true }).waitFor();
    const portField = section.getByRole('spinbutton', { name: 'Port' });
    await portField.fill(String(port));
    await portField.press('Enter');
    // A controlled box: it shows the saved setting once the update comes back.
    const toggle = section.getByRole('checkbox', { name: 'Share task lists with other agents' });
    await toggle.click();
    await expect.poll(() => toggle.isChecked(), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(() => section.getByRole('status', { name: 'Sharing status' }).textContent(), { timeout: 10_000 })
      .toContain(`Serving http://127.0.0.1:${port}/mcp`);
    // The same url and token the stdio bridge finds, in the 0600 discovery file.
    const discovery = JSON.parse(fs.readFileSync(path.join(app.dataDir, 'task-share.json'), 'utf8')) as {
      url: string;
      token: string;
    };
    expect(discovery.url).toBe(`http://127.0.0.1:${port}/mcp`);
    // "Copy configuration" puts the ready mcpServers block, with the same url and token, on the clipboard.
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    await section.getByRole('button', { name: 'Copy configuration', exact: true }).click();
    await page().getByText('Configuration copied', { exact: false }).waitFor();
    const copied = parseConfiguration((await page().evaluate('navigator.clipboard.readText()')) as string);
    expect(copied).toEqual({ url: discovery.url, token: discovery.token });
    client = await connectClient(copied);
    const { lists } = await callJson<{ lists: Array<{ conversationId: string; title: string }> }>(
      client,
      'list_task_lists',
      {},
    );
    expect(lists).toHaveLength(1);
    conversationId = lists[0].conversationId;
    await page()
      .getByRole('list', { name: 'Saved conversations' })
      .getByRole('link', { name: /^Shared plan/ })
      .click();
    await rowList().waitFor();
  });

  it("shows the client's changes in the header, each saying who made it", async () => {
    await callJson(client!, 'update_task', { conversationId, taskId: 2, status: 'completed' });
    await callJson(client!, 'update_task', { conversationId, taskId: 3, title: 'Write the code and tests' });
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual([
        'Task 1, in progress: Gather requirements',
        'Task 2, completed: Sketch the screens',
        'Task 3, pending: Write the code and tests',
      ]);
    await headerRow('Sketch the screens').getByText('Changed by test-client', { exact: true }).waitFor();
    await headerRow('Write the code and tests').getByText('Changed by test-client', { exact: true }).waitFor();
    expect(
      await headerRow('Gather requirements')
        .getByText(/Changed by/)
        .count(),
    ).toBe(0);
    // The transcript says it quietly, once per change.
    const lines = page().getByRole('article', { name: 'Task change by another agent' });
    await expect
      .poll(() => lines.allTextContents(), { timeout: 10_000 })
      .toEqual([
        'Changed by test-client over MCP: marked task 2 completed.',
        'Changed by test-client over MCP: renamed task 3 to "Write the code and tests".',
      ]);
  });

  it("tells the conversation's model on its next request", async () => {
    const prompt = await nextSystemPrompt(page(), server, turns);
    expect(prompt).toContain('test-client (another agent, over MCP) marked task 2 completed and renamed task 3.');
  });

  it('shows a reorder by the client on the task it moved, in the header, the transcript and on the board', async () => {
    await callJson(client!, 'reorder_tasks', { conversationId, order: [3, 1, 2] });
    await expect
      .poll(rowNames, { timeout: 10_000 })
      .toEqual([
        'Task 1, pending: Write the code and tests',
        'Task 2, in progress: Gather requirements',
        'Task 3, completed: Sketch the screens',
      ]);
    const lines = page().getByRole('article', { name: 'Task change by another agent' });
    await expect
      .poll(() => lines.last().textContent(), { timeout: 10_000 })
      .toBe('Changed by test-client over MCP: moved task 3 (the order is now 3, 1, 2).');
    // Task 1 only passed by: the user's own state, no source.
    expect(
      await headerRow('Gather requirements')
        .getByText(/Changed by/)
        .count(),
    ).toBe(0);
    await headerRow('Write the code and tests').getByText('Changed by test-client', { exact: true }).waitFor();

    await page().getByRole('button', { name: 'Tasks', exact: true }).click();
    const group = page()
      .getByRole('region', { name: 'Task board' })
      .getByRole('region', { name: 'Shared plan', exact: true });
    const boardRow = (title: string) => group.getByRole('listitem').filter({ hasText: title });
    await boardRow('Write the code and tests').getByText('Changed by test-client', { exact: true }).waitFor();
    await boardRow('Sketch the screens').getByText('Changed by test-client', { exact: true }).waitFor();
    expect(
      await boardRow('Gather requirements')
        .getByText(/Changed by/)
        .count(),
    ).toBe(0);
  });

  it('sends a resource update to the subscribed client when the user ticks a task on the board', async () => {
    const uri = `stepwise://tasks/${conversationId}`;
    const updated = new Promise<string>((resolve) =>
      client!.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client!.subscribeResource({ uri });
    const group = page()
      .getByRole('region', { name: 'Task board' })
      .getByRole('region', { name: 'Shared plan', exact: true });
    // Rows are numbered by place: the moved task (id 3) is first now.
    await group.getByRole('checkbox', { name: 'Task 1 done' }).click();
    expect(await updated).toBe(uri);
    const list = await callJson<{ tasks: Array<{ id: number; status: string }> }>(client!, 'get_task_list', {
      conversationId,
    });
    expect(list.tasks[0]).toMatchObject({ id: 3, status: 'completed' });
    // The user's tick is theirs: the row no longer names the client.
    await expect
      .poll(
        () =>
          group
            .getByRole('listitem')
            .filter({ hasText: 'Write the code and tests' })
            .getByText(/Changed by/)
            .count(),
        { timeout: 10_000 },
      )
      .toBe(0);
    await page()
      .getByRole('list', { name: 'Saved conversations' })
      .getByRole('link', { name: /^Shared plan/ })
      .click();
    await rowList().waitFor();
  });

  it('sends a resource update to the subscribed client when the user ticks a task in the header', async () => {
    const uri = `stepwise://tasks/${conversationId}`;
    const updated = new Promise<string>((resolve) =>
      client!.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client!.subscribeResource({ uri });
    // Task id 1 is second since the client's reorder.
    await rowList().getByRole('checkbox', { name: 'Task 2 done' }).click();
    expect(await updated).toBe(uri);
    const list = await callJson<{ tasks: Array<{ id: number; status: string }> }>(client!, 'get_task_list', {
      conversationId,
    });
    expect(list.tasks.find((t) => t.id === 1)).toMatchObject({ id: 1, status: 'completed' });
  });
});
