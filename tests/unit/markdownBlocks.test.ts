import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitBlocks, splitBlocksIncremental, type Blocks } from '../../src/renderer/chat/markdownBlocks';

const doc = [
  '# Plan\n\nFirst a paragraph with **bold** and `code`.\n\n',
  '- one\n- two\n\n  still two\n- three\n\n',
  '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n',
  '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
  '$$\nx^2\n\ny^2\n$$\n\nThe end.\n',
].join('');

function stream(text: string, cuts: number[]): Blocks {
  let state: Blocks | null = null;
  for (const cut of [...cuts.sort((a, b) => a - b), text.length]) state = splitBlocksIncremental(state, text.slice(0, cut));
  return state!;
}

describe('markdown blocks', () => {
  it('splits into top-level blocks that join back to the text', () => {
    const blocks = splitBlocks(doc);
    expect(blocks.join('')).toBe(doc);
    expect(blocks[0]).toBe('# Plan\n\n');
    expect(blocks.find((b) => b.startsWith('```'))).toBe('```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n');
    // Display math spanning a blank line stays one block.
    expect(blocks.find((b) => b.startsWith('$$'))).toBe('$$\nx^2\n\ny^2\n$$\n\n');
  });

  it('keeps text with reference definitions whole, so links resolve', () => {
    const text = 'See [the docs][1].\n\nMore.\n\n[1]: https://example.com\n';
    expect(splitBlocks(text)).toEqual([text]);
    expect(stream(text, [5, 20, 30]).blocks).toEqual([text]);
  });

  it('streamed in pieces, ends with the same blocks as a split of the whole text', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: doc.length }), { maxLength: 40 }), (cuts) => {
        const result = stream(doc, cuts);
        expect(result.blocks.join('')).toBe(doc);
        expect(result.blocks).toEqual(splitBlocks(doc));
      }),
      { numRuns: 300 },
    );
  });

  it('always joins back to the text for arbitrary Markdown-ish input', () => {
    const piece = fc.constantFrom('# h\n', 'text ', '\n\n', '- item\n', '```\n', '$$\n', '| a |\n|---|\n', '> quote\n', '**b', '`c');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 10 }), (pieces, cuts) => {
        const text = pieces.join('');
        const result = stream(text, cuts.map((c) => c % (text.length + 1)));
        expect(result.blocks.join('')).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
