// Attachments (issue 15, item 2) in Chromium against the browser host: files attached
// with "Attach files", by paste and by a drop show as removable chips with the limits;
// a model not set up for images gets a note (and the user is told before sending); once
// the model is marked "Sees images", an attached png arrives at the scripted server as an
// image_url part and a .txt as a fenced block, and the transcript shows the files (an
// image's thumbnail opens it at full size; a large image's is at most 512 px, the viewer
// shows the original).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatBody } from '../support/scriptedServer';
import { PNG_1X1, pngOfSize } from '../support/attachmentFixtures';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
import { violations } from './support/axe';

const turns = turnQueue({ title: () => 'Files' });
const bodies: ChatBody[] = [];

const page = (): Page => app.page;
type Part = { type: string; text?: string; image_url?: { url: string } };
const lastUserContent = () => bodies.at(-1)!.messages.at(-1)!.content as unknown as string | Part[];

const { app } = appPerFile({ name: 'attachments', server: { script: turns.script } });

async function newConversation() {
  await page()
    .getByRole('complementary', { name: 'Conversations' })
    .getByRole('button', { name: 'New conversation', exact: true })
    .click();
}

async function attach(files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const chooser = page().waitForEvent('filechooser');
  await page().getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(files);
  for (const file of files)
    await page()
      .getByRole('button', { name: `Remove ${file.name}` })
      .waitFor();
  // Uploaded: the chips are no longer busy (a large image's answer waits for its thumbnail).
  await expect.poll(() => page().locator('.attachment-tray [aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
}

async function send(text: string, answer: string) {
  turns.push((body) => {
    bodies.push(body);
    return { text: answer };
  });
  await page().getByRole('textbox', { name: 'Message' }).fill(text);
  await page().getByRole('button', { name: 'Send', exact: true }).click();
  await page().getByText(answer).waitFor({ timeout: 15_000 });
}

const png = { name: 'dot.png', mimeType: 'image/png', buffer: PNG_1X1 };
const txt = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('first line\nsecond line\n') };

describe('attachments', () => {
  it('attaches by paste and by drop, shows chips with the limits, and removes a chip', async () => {
    await newConversation();
    const composer = page().getByRole('form', { name: 'Message composer' });
    await page()
      .getByRole('textbox', { name: 'Message' })
      .evaluate((box) => {
        const data = new DataTransfer();
        data.items.add(new File(['pasted text'], 'pasted.txt', { type: 'text/plain' }));
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      });
    await composer.getByRole('button', { name: 'Remove pasted.txt' }).waitFor();
    await page()
      .getByRole('region', { name: 'New conversation' })
      .evaluate((section) => {
        const data = new DataTransfer();
        data.items.add(new File(['dropped text'], 'dropped.md', { type: 'text/markdown' }));
        section.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      });
    await composer.getByRole('button', { name: 'Remove dropped.md' }).waitFor();
    expect(await composer.getByRole('list', { name: 'Attached files' }).getByRole('listitem').count()).toBe(2);
    expect(await composer.innerText()).toContain('Up to 10 files, 10 MB each and 20 MB in all');
    expect(await violations(page())).toEqual([]);

    await composer.getByRole('button', { name: 'Remove pasted.txt' }).click();
    await composer.getByRole('button', { name: 'Remove dropped.md' }).click();
    expect(await composer.getByRole('list', { name: 'Attached files' }).count()).toBe(0);
  });

  it('tells the user before sending that the model does not see images, and sends it a note instead', async () => {
    await newConversation();
    await attach([png]);
    await page().getByRole('note').getByText('scripted is not set up to see images').waitFor();
    await send('What is in it?', 'I cannot see images.');
    expect(lastUserContent()).toBe(
      'What is in it?\n\n[Image dot.png not shown: scripted is not set up to see images.]',
    );
  });

  it('sends an attached png as an image_url part and a .txt as a fenced block to a model marked "Sees images"', async () => {
    await page().getByRole('button', { name: 'Settings', exact: true }).click();
    await page().getByRole('combobox', { name: 'Model details for' }).selectOption('scripted');
    await page().getByRole('combobox', { name: 'Sees images' }).selectOption({ label: 'Yes: send attached images' });
    await page().getByRole('button', { name: 'Save model details' }).click();
    await page().getByRole('status').getByText('Saved the details of scripted').waitFor();
    await page().getByRole('button', { name: 'Close settings' }).click();

    await newConversation();
    await attach([png, txt]);
    expect(await page().getByRole('note').count()).toBe(0);
    await send('What are these?', 'A red dot and two lines.');
    expect(lastUserContent()).toEqual([
      { type: 'text', text: 'What are these?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1.toString('base64')}` } },
      { type: 'text', text: 'notes.txt:\n```txt\nfirst line\nsecond line\n```' },
    ]);

    // The transcript shows the files with the message: a thumbnail for the image.
    const message = page().getByRole('article', { name: 'You message' }).last();
    const files = message.getByRole('list', { name: 'Attached files' });
    await files.getByRole('img', { name: 'dot.png' }).waitFor();
    expect(await files.getByText('notes.txt').count()).toBe(1);
    // A thumbnail opens the image at full size.
    await files.getByRole('button', { name: 'View dot.png' }).click();
    const viewer = page().getByRole('dialog', { name: 'dot.png' });
    await viewer.getByRole('img', { name: 'dot.png' }).waitFor();
    expect(await violations(page())).toEqual([]);
    await page().keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    // The composer is empty again.
    expect(
      await page()
        .getByRole('form', { name: 'Message composer' })
        .getByRole('list', { name: 'Attached files' })
        .count(),
    ).toBe(0);
    expect(await violations(page())).toEqual([]);
  });

  it('shows a large image as a thumbnail of at most 512 px, and the original in the viewer', async () => {
    // The model was marked "Sees images" by the test before.
    await newConversation();
    const photo = pngOfSize(2000, 1500);
    await attach([{ name: 'wide.png', mimeType: 'image/png', buffer: photo }]);
    await send('And this one?', 'Red and blue.');
    expect(lastUserContent()).toContainEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${photo.toString('base64')}` },
    });

    const files = page()
      .getByRole('article', { name: 'You message' })
      .last()
      .getByRole('list', { name: 'Attached files' });
    const thumbnail = files.getByRole('img', { name: 'wide.png' });
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]), {
        timeout: 15_000,
      })
      .toEqual([512, 384]);
    await files.getByRole('button', { name: 'View wide.png' }).click();
    const viewer = page().getByRole('dialog', { name: 'wide.png' });
    const full = viewer.getByRole('img', { name: 'wide.png' });
    await expect
      .poll(() => full.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]), { timeout: 15_000 })
      .toEqual([2000, 1500]);
    await page().keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
  });

  it('Enter while a file uploads sends once it is stored; the button says "Uploading…" meanwhile', async () => {
    // A page whose socket holds each upload until the test releases it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await app.context.routeWebSocket(/./, (socket) => {
      const server = socket.connectToServer();
      socket.onMessage(async (frame) => {
        if (typeof frame === 'string' && frame.includes('"attachments:add"')) await released;
        server.send(frame);
      });
    });
    const held = await app.openPage();
    try {
      await held
        .getByRole('complementary', { name: 'Conversations' })
        .getByRole('button', { name: 'New conversation', exact: true })
        .click();
      const chooser = held.waitForEvent('filechooser');
      await held.getByRole('button', { name: 'Attach files' }).click();
      await (await chooser).setFiles([txt]);
      await held.locator('.attachment-tray [aria-busy="true"]').waitFor();
      const composer = held.getByRole('form', { name: 'Message composer' });
      expect(await composer.getByRole('button', { name: 'Uploading…' }).isDisabled()).toBe(true);
      turns.push((body) => {
        bodies.push(body);
        return { text: 'Two lines of notes.' };
      });
      await held.getByRole('textbox', { name: 'Message' }).fill('Summarize the notes.');
      await held.getByRole('textbox', { name: 'Message' }).press('Enter');
      expect(await held.getByRole('article', { name: 'You message' }).count()).toBe(0);
      release();
      await held.getByText('Two lines of notes.').waitFor({ timeout: 15_000 });
      expect(lastUserContent()).toBe('Summarize the notes.\n\nnotes.txt:\n```txt\nfirst line\nsecond line\n```');
      await composer.getByRole('button', { name: 'Send', exact: true }).waitFor();
    } finally {
      release();
      await held.close();
      await app.context.unrouteAll();
    }
  });
});
