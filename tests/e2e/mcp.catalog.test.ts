// MCP prompts, resources, images and roots in Chromium with the reference "everything"
// server: a prompt from "/" (with arguments and the server's suggestions), resources from
// "@" attached and sent (a static one and a template's), an image result reaching a model
// that sees images as an image part, and "Folders the tools may use" reaching the server.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ChatBody } from '../support/scriptedServer';
import { everything, writeMcpConfig } from '../support/mcpFixtures';
import { makeTempDir, removeDir } from '../support/tempDir';
import { makeDataDir } from './support/app';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';

let dataDir: string;
let workDir: string;
const turns = turnQueue({ title: () => 'MCP catalog' });

const { app } = appPerFile({
  name: 'mcp-catalog',
  server: { script: turns.script },
  // A model known to see images (by its name), so tool images go to it as image parts.
  env: { STEPWISE_MODEL: 'gpt-4o' },
  prepare: () => {
    workDir = fs.realpathSync(makeTempDir('stepwise-mcp-catalog-e2e-'));
    dataDir = makeDataDir();
    writeMcpConfig(dataDir, { everything: everything({ trusted: true }) });
    return { dataDir, planReview: false };
  },
  afterClose: () => {
    if (workDir) removeDir(workDir);
    if (dataDir) removeDir(dataDir);
  },
});

const page = () => app.page;
const box = () => page().getByRole('textbox', { name: 'Message' });
const composer = () => page().getByRole('form', { name: 'Message composer' });

async function newConversation() {
  await page().getByRole('button', { name: 'New conversation', exact: true }).click();
  await box().waitFor();
}

/** Sends what the composer holds; resolves with the model's request once the reply is shown. */
async function sendAndCapture(reply: string): Promise<ChatBody> {
  let seen: ChatBody | null = null;
  turns.push((body) => {
    seen = body;
    return { text: reply };
  });
  await composer().getByRole('button', { name: 'Send', exact: true }).click();
  await page().getByText(reply).waitFor({ timeout: 20_000 });
  return seen!;
}

describe('server prompts under "/"', () => {
  it('lists a prompt with its server, asks for its arguments and inserts its message', async () => {
    await newConversation();
    await box().fill('/args');
    await page()
      .getByRole('option', { name: /\/args-prompt\s*everything/ })
      .click();
    const form = page().getByRole('group', { name: 'Arguments Prompt from everything' });
    await form.getByRole('combobox', { name: 'city (required)' }).fill('Paris');
    await form.getByRole('button', { name: 'Use prompt' }).click();
    await expect.poll(() => box().inputValue()).toBe("What's weather in Paris?");
    expect(await form.count()).toBe(0);
  });

  it('suggests argument values from the server, narrowed by the arguments already given', async () => {
    await box().fill('/completable');
    await page()
      .getByRole('option', { name: /\/completable-prompt/ })
      .click();
    const form = page().getByRole('group', { name: 'Team Management from everything' });
    await form.getByRole('combobox', { name: 'department (required)' }).fill('Eng');
    await form.locator('option[value="Engineering"]').waitFor({ state: 'attached' });
    await form.getByRole('combobox', { name: 'department (required)' }).fill('Engineering');
    await form.getByRole('combobox', { name: 'name (required)' }).focus();
    await form.locator('option[value="Alice"]').waitFor({ state: 'attached' });
    expect(await form.locator('option[value="David"]').count()).toBe(0);
    await form.getByRole('combobox', { name: 'name (required)' }).fill('Alice');
    await form.getByRole('button', { name: 'Use prompt' }).click();
    await expect.poll(() => box().inputValue()).toBe('Please promote Alice to the head of the Engineering team.');
    await box().fill('');
  });
});

describe('resources under "@"', () => {
  it('attaches a resource and a filled-in template, and sends their content with the message', async () => {
    await newConversation();
    await box().fill('Summarize @architecture');
    await page()
      .getByRole('option', { name: /@architecture\.md\s*everything/ })
      .click();
    await composer().getByRole('button', { name: 'Remove architecture.md' }).waitFor();
    await expect.poll(() => box().inputValue()).toBe('Summarize ');

    await box().fill('Summarize @dynamic/text');
    await page()
      .getByRole('option', { name: /@Dynamic Text Resource/ })
      .click();
    const form = page().getByRole('group', { name: 'Dynamic Text Resource from everything' });
    await form.getByRole('combobox', { name: 'resourceId (required)' }).fill('5');
    await form.getByRole('button', { name: 'Attach' }).click();
    await composer().getByRole('button', { name: 'Remove 5' }).waitFor();
    await expect.poll(() => box().inputValue()).toBe('Summarize ');

    const body = await sendAndCapture('Summarized.');
    const user = JSON.stringify(body.messages.findLast((m) => m.role === 'user')!.content);
    expect(user).toContain('Summarize');
    expect(user).toContain('architecture.md');
    expect(user).toMatch(/Resource 5/);
  });
});

describe('tool results', () => {
  it('sends an image a tool returned to a model that sees images, and shows it in the card', async () => {
    await newConversation();
    turns.push({ toolCalls: [{ id: 'img', name: 'mcp__everything__get-tiny-image', arguments: '{}' }] });
    await box().fill('Show me the image.');
    const body = await sendAndCapture('A tiny image.');
    const parts = body.messages.flatMap((m) =>
      Array.isArray(m.content) ? (m.content as Array<{ type: string; image_url?: { url: string } }>) : [],
    );
    expect(parts.some((p) => p.type === 'image_url' && p.image_url!.url.startsWith('data:image/png;base64,'))).toBe(
      true,
    );

    await page().locator('summary').filter({ hasText: 'Tool call mcp__everything__get-tiny-image' }).click();
    await page().getByRole('img', { name: 'Image 1 from the tool' }).waitFor();
  });
});

describe('Folders the tools may use', () => {
  it('is set in Settings and reaches the server as its roots', async () => {
    await page().getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('link', { name: 'Tools (MCP)' }).click();
    await page().getByRole('textbox', { name: 'Folder path' }).fill(workDir);
    await page().getByRole('button', { name: 'Add folder' }).click();
    await page()
      .getByRole('list', { name: 'Folders the tools may use' })
      .getByRole('button', { name: `Remove folder ${workDir}` })
      .waitFor();

    await newConversation();
    turns.push({ toolCalls: [{ id: 'roots', name: 'mcp__everything__get-roots-list', arguments: '{}' }] });
    await box().fill('Which folders?');
    const body = await sendAndCapture('Those folders.');
    const result = body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'roots')!.content!;
    expect(result).toContain(`URI: ${pathToFileURL(workDir).href}`);
    expect(result).toContain(`1. ${path.basename(workDir)}`);
  });

  it("a sidebar folder keeps its own, set from the folder's menu", async () => {
    await page().getByRole('button', { name: 'New folder' }).click();
    await page()
      .getByRole('dialog', { name: 'New folder' })
      .getByRole('textbox', { name: 'Folder name' })
      .fill('Client');
    await page().keyboard.press('Enter');
    const own = path.join(workDir, 'client');
    const open = async () => {
      await page().getByRole('button', { name: 'Actions for folder Client', exact: true }).click();
      await page()
        .getByRole('menu', { name: 'Actions for folder Client' })
        .getByRole('menuitem', { name: 'Folders the tools may use…' })
        .click();
      return page().getByRole('dialog', { name: 'Folders the tools may use in Client' });
    };
    let dialog = await open();
    await dialog.getByRole('textbox', { name: 'Folder path' }).fill(own);
    await dialog.getByRole('button', { name: 'Add folder' }).click();
    await dialog.getByRole('button', { name: `Remove folder ${own}` }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Kept: the dialog shows it again.
    dialog = await open();
    await dialog.getByRole('button', { name: `Remove folder ${own}` }).waitFor();
    await dialog.getByRole('textbox', { name: 'Folder path' }).fill('relative/dir');
    await dialog.getByRole('button', { name: 'Add folder' }).click();
    await page()
      .getByText(/absolute path/)
      .first()
      .waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });
});

describe('resources in tool results', () => {
  it('opens a resource link in a viewer and offers a binary embedded resource as a download', async () => {
    await newConversation();
    turns.push({
      toolCalls: [
        { id: 'links', name: 'mcp__everything__get-resource-links', arguments: '{"count":2}' },
        {
          id: 'blob',
          name: 'mcp__everything__get-resource-reference',
          arguments: '{"resourceType":"Blob","resourceId":4}',
        },
      ],
    });
    await box().fill('Give me resources.');
    await sendAndCapture('Here they are.');

    await page().locator('summary').filter({ hasText: 'Tool call mcp__everything__get-resource-links' }).click();
    // The server links odd ids to binary resources and even ids to text ones.
    await page().getByRole('button', { name: 'Open Text Resource 2' }).click();
    const text = page().getByRole('dialog', { name: 'Text Resource 2' });
    expect(await text.getByLabel('Contents of 2').innerText()).toMatch(/Resource 2/);
    await text.getByRole('button', { name: 'Close' }).click();
    await page().getByRole('button', { name: 'Open Blob Resource 1' }).click();
    const blob = page().getByRole('dialog', { name: 'Blob Resource 1' });
    await blob.getByRole('link', { name: /^Download 1\s*text\/plain\s*\d+ B$/ }).waitFor();
    await blob.getByRole('button', { name: 'Close' }).click();

    await page().locator('summary').filter({ hasText: 'Tool call mcp__everything__get-resource-reference' }).click();
    const download = page().getByRole('link', { name: /^Download 4\s*text\/plain\s*\d+ B$/ });
    await download.waitFor();
    expect(await download.getAttribute('download')).toBe('4');
    expect(await download.getAttribute('href')).toMatch(/^data:text\/plain;base64,/);
  });
});
