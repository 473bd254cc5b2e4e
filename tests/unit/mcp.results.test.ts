// What the model is told of resources in an MCP result, and what the card keeps of them.
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_FILE_MAX } from '../../src/shared/attachments';
import { contentOf, givenMessages, nameFromUri, promptContent } from '../../src/main/core/mcp/mcpCatalog';
import { convertResult, EMBEDDED_MAX } from '../../src/main/core/mcp/mcpResults';

describe('resources in a tool result', () => {
  it('keeps audio content for the card, which plays it, and tells the model so', () => {
    const wav = Buffer.from('RIFF wav bytes').toString('base64');
    const result = convertResult(
      {
        content: [
          { type: 'audio', data: wav, mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'demo://c.wav', mimeType: 'audio/wav', blob: wav } },
        ],
      },
      'demo',
    );
    expect(result.text).toBe(
      '[Audio 1: audio/wav, 0.0 KB, offered to the user as an audio player]\n' +
        '[Resource demo://c.wav (audio/wav, 0.0 KB, binary), offered to the user as an audio player]',
    );
    expect(result.attachments[0]).toEqual({
      uri: 'Audio 1',
      name: 'Audio 1',
      mimeType: 'audio/wav',
      text: null,
      kind: 'embedded',
      data: wav,
      size: 14,
    });
  });

  it('keeps a binary embedded resource for the card and says how it is shown', () => {
    const png = Buffer.from('not really a png').toString('base64');
    const zip = Buffer.from('PK\u0003\u0004 zip bytes').toString('base64');
    const result = convertResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'demo://a.png', mimeType: 'image/png', blob: png } },
          { type: 'resource', resource: { uri: 'demo://b.zip', mimeType: 'application/zip', blob: zip } },
        ],
      },
      'demo',
    );
    expect(result.text).toBe(
      '[Resource demo://a.png (image/png, 0.0 KB, binary), shown to the user as an image]\n' +
        '[Resource demo://b.zip (application/zip, 0.0 KB, binary), offered to the user as a download]',
    );
    expect(result.attachments).toEqual([
      {
        uri: 'demo://a.png',
        name: 'demo://a.png',
        mimeType: 'image/png',
        text: null,
        kind: 'embedded',
        data: png,
        size: 16,
      },
      {
        uri: 'demo://b.zip',
        name: 'demo://b.zip',
        mimeType: 'application/zip',
        text: null,
        kind: 'embedded',
        data: zip,
        size: 14,
      },
    ]);
  });

  it('names one too large to keep without claiming it is shown', () => {
    const blob = 'A'.repeat(EMBEDDED_MAX + 4);
    const result = convertResult({ content: [{ type: 'resource', resource: { uri: 'demo://big', blob } }] });
    expect(result.text).toMatch(
      /^\[Resource demo:\/\/big \([\d.]+ KB, binary\), too large to keep; the user sees only its name\]$/,
    );
    expect(result.attachments[0]).toMatchObject({ data: null, size: (EMBEDDED_MAX / 4) * 3 + 3 });
  });

  it('marks a resource link with the server it can be read from', () => {
    const result = convertResult(
      { content: [{ type: 'resource_link', uri: 'file:///r.txt', name: 'r.txt', mimeType: 'text/plain' }] },
      'fs',
    );
    expect(result.text).toBe('[Resource link: r.txt <file:///r.txt> (text/plain)]');
    expect(result.attachments).toEqual([
      { uri: 'file:///r.txt', name: 'r.txt', mimeType: 'text/plain', text: null, kind: 'link', server: 'fs' },
    ]);
  });
});

describe('content for the composer (mcpCatalog)', () => {
  it('refuses content over the attachment limit with its size, and names files from their URI', () => {
    const big = 'x'.repeat(ATTACHMENT_FILE_MAX + 1);
    expect(() => contentOf({ uri: 'demo://docs/big.txt', text: big })).toThrow(
      /^big\.txt is 10,485,761 bytes; files can be at most 10 MB \(10,485,760 bytes\)\.$/,
    );
    expect(contentOf({ uri: 'file:///a/My%20Notes.md?x=1', text: 'hi' })).toEqual({
      uri: 'file:///a/My%20Notes.md?x=1',
      name: 'My Notes.md',
      mimeType: null,
      text: 'hi',
      data: null,
      size: 2,
    });
    expect(nameFromUri('demo://')).toBe('demo:');
    expect(nameFromUri('')).toBe('resource');
  });

  it("turns a prompt's messages into text and files, and names what a message cannot carry", () => {
    const result = promptContent({
      messages: [
        { role: 'user', content: { type: 'text', text: 'First' } },
        { role: 'assistant', content: { type: 'text', text: 'Second' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://r/1.txt', text: 'body' } } },
        { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
      ],
    });
    expect(result.text).toBe('First\n\nSecond');
    expect(result.files.map((f) => [f.name, f.text])).toEqual([['1.txt', 'body']]);
    expect(result.notes).toEqual(['The prompt also has audio content, which a message cannot carry; it was left out.']);
  });
});

describe('a prompt that holds a conversation', () => {
  it('is marked to be sent as given, its messages with their roles; what a message cannot carry is named', () => {
    const result = {
      messages: [
        { role: 'user' as const, content: { type: 'text' as const, text: 'Review this.' } },
        {
          role: 'user' as const,
          content: { type: 'resource' as const, resource: { uri: 'file:///a.ts', text: 'let a = 1;' } },
        },
        { role: 'assistant' as const, content: { type: 'text' as const, text: 'Which style?' } },
        { role: 'user' as const, content: { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' } },
        { role: 'user' as const, content: { type: 'text' as const, text: 'Ours.' } },
      ],
    };
    expect(promptContent(result).sendAsGiven).toBe(true);
    expect(givenMessages(result)).toEqual({
      given: [
        { role: 'user', content: 'Review this.\n\n[Resource file:///a.ts]\nlet a = 1;' },
        { role: 'assistant', content: 'Which style?' },
        { role: 'user', content: 'Ours.' },
      ],
      notes: ['The prompt also has image content in a message sent as it is; it was left out.'],
    });
    expect(promptContent({ messages: [result.messages[0]] }).sendAsGiven).toBe(false);
  });
});
