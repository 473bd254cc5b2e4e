// Attachments in the request: a user message with files becomes parts (or one string
// without images), the images count against the context window so a too-long request is
// caught before it is sent, and the summary and history estimates know about the files.
import { describe, expect, it } from 'vitest';
import { buildRequestHistory, compactionSplit } from '../../src/main/core/context/requestHistory';
import { attachmentTokens, createTokenCounter, IMAGE_TOKENS } from '../../src/main/core/context/tokenCount';
import { fenced, userContent, type LoadedAttachment } from '../../src/main/core/attachments/attachmentParts';
import { seesImages, type AttachmentInfo } from '../../src/shared/attachments';
import type { Message } from '../../src/shared/domain';
import { message } from '../support/messageFixture';

const msg = (role: Message['role'], content: string, attachments?: AttachmentInfo[]): Message =>
  message({ role, content, ...(attachments ? { attachments } : {}) });
const image: AttachmentInfo = { id: 'image-0001', name: 'chart.png', mimeType: 'image/png', kind: 'image', size: 2048 };
const note: AttachmentInfo = { id: 'text-00001', name: 'Makefile', mimeType: 'text/plain', kind: 'text', size: 40 };
const loaded: Record<string, LoadedAttachment> = {
  [image.id]: { kind: 'image', dataUrl: 'data:image/png;base64,AAAA' },
  [note.id]: { kind: 'text', text: 'all:\n\tcc main.c\n' },
};
const load = (a: AttachmentInfo) => loaded[a.id];

describe('user content with attachments', () => {
  it('keeps the parts in order, merging neighbouring text', () => {
    expect(userContent({ text: '', attachments: [note, image, note], load, model: 'm', vision: true })).toEqual([
      { type: 'text', text: 'Makefile:\n```text\nall:\n\tcc main.c\n```' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      { type: 'text', text: 'Makefile:\n```text\nall:\n\tcc main.c\n```' },
    ]);
  });

  it('fences with the extension as language when it looks like one, and text otherwise', () => {
    expect(fenced({ name: 'main.rs', kind: 'text' }, 'fn main() {}')).toBe('main.rs:\n```rs\nfn main() {}\n```');
    expect(fenced({ name: 'odd.name with space', kind: 'text' }, 'x')).toBe('odd.name with space:\n```text\nx\n```');
  });

  it('follows the per-model setting before the guess from the name', () => {
    expect(seesImages(undefined, 'gpt-4o')).toBe(true);
    expect(seesImages(undefined, 'llama3.1')).toBe(false);
    expect(seesImages({ vision: true }, 'llama3.1')).toBe(true);
    expect(seesImages({ vision: false }, 'gpt-4o')).toBe(false);
  });
});

describe('attachments and the context window', () => {
  const counter = createTokenCounter();
  const content = (m: Message) =>
    userContent({ text: m.content, attachments: m.attachments ?? [], load, model: 'm', vision: true });

  it('counts each image in the request, and refuses a request the images make too long', () => {
    const history = [msg('user', 'What does this chart show?', [image, image, image])];
    const base = { systemPrompt: 'Be brief.', summary: undefined, history, toolTokens: 0, userContent: content };
    const roomy = buildRequestHistory({ ...base, contextWindow: 100_000 }, counter);
    expect(roomy.messages[1].content).toHaveLength(4);
    expect(roomy.tokens).toBeGreaterThan(3 * IMAGE_TOKENS);
    const small = buildRequestHistory({ ...base, contextWindow: 2 * IMAGE_TOKENS }, counter);
    expect(small.tooLong).toBe(true);
  });

  it('estimates files by size where they are not read, and the summary split counts them', () => {
    expect(attachmentTokens({ attachments: [image, note] })).toBe(IMAGE_TOKENS + 10);
    expect(attachmentTokens({})).toBe(0);
    // The newest exchange carries two images: with room for less, the older turns are what a summary replaces.
    const history = [
      msg('user', 'first'),
      msg('assistant', 'ok'),
      msg('user', 'look', [image, image]),
      msg('assistant', 'seen'),
    ];
    expect(compactionSplit(history, IMAGE_TOKENS, counter)?.older.map((m) => m.content)).toEqual(['first', 'ok']);
  });
});
