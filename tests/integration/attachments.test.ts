// Attachments through the contract, the real chat loop, SQLite and the openai SDK: the
// bytes go up as base64, the message references them by id, and the request the scripted
// server receives carries an image part for a model that sees images, a note otherwise,
// text files as fenced blocks and PDFs as their text.
import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, startChatCore, TEST_KEY, type ChatHarness } from '../support/chatHarness';
import { PNG_1X1, pdfWithText } from '../support/attachmentFixtures';
import { createTokenCounter, IMAGE_TOKENS } from '../../src/main/core/context/tokenCount';

let server: ScriptedServer;
let h: ChatHarness;

const perTest = chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

type Part = { type: string; text?: string; image_url?: { url: string } };
const lastUserContent = () =>
  server.streamRequests().at(-1)!.body.messages.at(-1)!.content as unknown as string | Part[];

async function upload(name: string, bytes: Buffer, mimeType = '') {
  return h.call('attachments:add', { name, mimeType, data: bytes.toString('base64') });
}

async function sendWith(conversationId: string, content: string, attachments: string[]) {
  const from = h.events.length;
  const message = await h.call('messages:send', { conversationId, content, attachments });
  await h.waitIdle(conversationId, from);
  return message;
}

describe('attachments', () => {
  it('sends a png as an image_url part and a .txt as a fenced block to a model that sees images', async () => {
    h = await perTest.restart({
      env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: TEST_KEY, STEPWISE_MODEL: 'gpt-4o' },
    });
    server.push({ text: 'A red dot and a note.' }, { text: 'Title' });
    const conversation = await h.newConversation('Files');
    const png = await upload('dot.png', PNG_1X1, 'image/png');
    const txt = await upload('notes.txt', Buffer.from('line one\nline two\n'), 'text/plain');
    const message = await sendWith(conversation.id, 'What are these?', [png.id, txt.id]);

    expect(message.attachments).toEqual([png, txt]);
    expect(lastUserContent()).toEqual([
      { type: 'text', text: 'What are these?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1.toString('base64')}` } },
      { type: 'text', text: 'notes.txt:\n```txt\nline one\nline two\n```' },
    ]);
    // The transcript keeps the files with the message, after a restart too.
    const dataDir = h.dataDir;
    await h.core.close();
    const again = startChatCore(server, { dataDir });
    try {
      expect(again.messages(conversation.id)[0].attachments?.map((a) => a.name)).toEqual(['dot.png', 'notes.txt']);
      expect(await again.call('attachments:preview', { id: png.id })).toEqual({
        status: 'ok',
        dataUrl: `data:image/png;base64,${PNG_1X1.toString('base64')}`,
      });
    } finally {
      await again.core.close();
      await h.close();
    }
  });

  it('tells a model that does not see images which image it misses, instead of a request it would refuse', async () => {
    server.push({ text: 'I cannot see it.' }, { text: 'Title' });
    const conversation = await h.newConversation('No vision');
    const png = await upload('dot.png', PNG_1X1);
    await sendWith(conversation.id, 'Describe it', [png.id]);
    expect(lastUserContent()).toBe(
      'Describe it\n\n[Image dot.png not shown: scripted-model is not set up to see images.]',
    );
  });

  it('starts a conversation with files only, and sends a PDF as its text', async () => {
    server.push({ text: 'It is about figures.' }, { text: 'Title' });
    const pdf = await upload('report.pdf', pdfWithText('Figures for May'));
    const id = crypto.randomUUID();
    const from = h.events.length;
    const started = await h.call('conversations:start', { id, content: '', attachments: [pdf.id] });
    await h.waitIdle(id, from);
    expect(started.message.attachments?.[0]).toMatchObject({ name: 'report.pdf', kind: 'pdf' });
    expect(lastUserContent()).toBe('report.pdf (text of the PDF):\n```text\nFigures for May\n```');
  });

  it('keeps the files of a message in the version an edit makes', async () => {
    server.push({ text: 'First answer.' }, { text: 'Title' }, { text: 'Second answer.' });
    const conversation = await h.newConversation('Edited');
    const txt = await upload('notes.txt', Buffer.from('keep me\n'));
    await sendWith(conversation.id, 'Read this', [txt.id]);
    const from = h.events.length;
    const edited = await h.call('chat:editLast', { conversationId: conversation.id, content: 'Read this again' });
    await h.waitIdle(conversation.id, from);
    expect(edited.attachments).toEqual([txt]);
    expect(lastUserContent()).toBe('Read this again\n\nnotes.txt:\n```txt\nkeep me\n```');
  });

  it('refuses bad uploads and sends with a clear error, storing nothing', async () => {
    const conversation = await h.newConversation('Refusals');
    expect(
      (
        await h.callError('attachments:add', {
          name: 'run.exe',
          mimeType: '',
          data: Buffer.from([0x4d, 0x5a, 0, 1]).toString('base64'),
        })
      ).message,
    ).toMatch(/run\.exe is not an image .* cannot be sent to a model/);
    expect(
      (await h.callError('attachments:add', { name: '../etc/passwd', mimeType: '', data: 'aGk=' })).message,
    ).toMatch(/a file name, not a path/);
    expect((await h.callError('messages:send', { conversationId: conversation.id, content: '  ' })).message).toMatch(
      /content: message must not be empty/,
    );
    expect(
      (
        await h.callError('messages:send', {
          conversationId: conversation.id,
          content: 'x',
          attachments: ['0000dead-beef'],
        })
      ).message,
    ).toMatch(/no longer stored/);
    expect(h.messages(conversation.id)).toEqual([]);
  });

  it('counts an image part against the context window', () => {
    const counter = createTokenCounter();
    const text = counter.message({ role: 'user', content: 'Look at this' });
    const withImage = counter.message({
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
    expect(withImage - text).toBe(IMAGE_TOKENS);
  });
});
