import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BIG_BLOCK,
  CHUNK,
  lexed,
  splitBlocks,
  splitBlocksIncremental,
  type Blocks,
} from '../../src/renderer/chat/markdownBlocks';

const doc = [
  '# Plan\n\nFirst a paragraph with **bold** and `code`.\n\n',
  '- one\n- two\n\n  still two\n- three\n\n',
  '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n',
  '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
  '$$\nx^2\n\ny^2\n$$\n\nThe end.\n',
].join('');

function stream(text: string, cuts: number[]): Blocks {
  let state: Blocks | null = null;
  for (const cut of [...cuts.sort((a, b) => a - b), text.length])
    state = splitBlocksIncremental(state, text.slice(0, cut));
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
    const piece = fc.constantFrom(
      '# h\n',
      'text ',
      '\n\n',
      '- item\n',
      '```\n',
      '$$\n',
      '| a |\n|---|\n',
      '> quote\n',
      '**b',
      '`c',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 10 }), (pieces, cuts) => {
        const text = pieces.join('');
        const result = stream(
          text,
          cuts.map((c) => c % (text.length + 1)),
        );
        expect(result.blocks.join('')).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a big table by its lines only outside code fences, and only at the start of a block', () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `| ${i} | widget-${i} |`).join('\n');
    const table = `| id | name |\n|---|---|\n${rows}\n`;
    const fenced = `Intro.\n\n\`\`\`md\n${table}\`\`\`\n\nAfter.\n`;
    const split = splitBlocksIncremental(null, fenced);
    expect(split.blocks.join('')).toBe(fenced);
    expect(new Set(split.chunks.map((c) => c?.kind))).toEqual(new Set([undefined, 'code']));
    const open = splitBlocksIncremental(null, `Intro.\n\n${table}\nAfter.\n`);
    expect(open.chunks.filter((c) => c?.kind === 'table').length).toBeGreaterThan(4);
    expect(open.blocks.at(-1)).toBe('After.\n');
  });

  // The three shapes of a reply that is one block: log lines in one paragraph, one code
  // block, one table. Each is streamed in 1,000 pieces.
  const shapes = {
    paragraph: Array.from(
      { length: 4000 },
      (_, i) => `12:00:${i % 60} worker-${i % 8} handled **job ${i}** in \`${i % 97} ms\``,
    ).join('\n'),
    code:
      '```ts\n' +
      Array.from({ length: 4000 }, (_, i) => `const value${i} = compute(${i}, "item-${i % 97}");`).join('\n') +
      '\n```\n',
    table:
      '| id | name | state | note |\n|---|---|---|---|\n' +
      Array.from({ length: 5000 }, (_, i) => `| ${i} | widget-${i % 97} | **ok** | step ${i} of the plan |`).join(
        '\n',
      ) +
      '\n',
    // A local model's token-by-token reply with no line break at all.
    'one-line paragraph': 'Tokens '.repeat(30_000),
  };

  for (const [shape, text] of Object.entries(shapes)) {
    it(`streams one ${shape} of ${Math.round(text.length / 1024)} kB in 1,000 pieces with flat work per piece`, () => {
      expect(text.length).toBeGreaterThan(8 * BIG_BLOCK);
      const step = Math.ceil(text.length / 1000);
      let state: Blocks | null = null;
      const lexedPerPiece: number[] = [];
      const changedPerPiece: number[] = [];
      for (let end = step; ; end += step) {
        const before = lexed.chars;
        const next = splitBlocksIncremental(state, text.slice(0, Math.min(end, text.length)));
        lexedPerPiece.push(lexed.chars - before);
        // A block whose text changed is parsed again as Markdown; the others are memoized.
        changedPerPiece.push(next.blocks.filter((block, i) => block !== state?.blocks[i]).length);
        state = next;
        if (end >= text.length) break;
      }
      expect(state!.blocks.join('')).toBe(text);
      expect(state!.blocks).toEqual(splitBlocks(text));
      expect(state!.blocks.length).toBeGreaterThan(text.length / (2 * CHUNK));
      // The lexer reads the last two chunks and the new piece, never the whole block...
      const late = lexedPerPiece.slice(100);
      expect(Math.max(...late)).toBeLessThanOrEqual(3 * CHUNK + step + 200);
      // ...and at most the last three blocks change, however long the block has grown
      // (once, when the block first grows past BIG_BLOCK, it turns into its chunks).
      expect(changedPerPiece.slice(1).filter((n) => n > 3).length).toBeLessThanOrEqual(1);
      // 1,000 splits of a 200 kB block: several seconds with both cores busy.
    }, 30_000);
  }

  it('cuts a paragraph of one long line between words, never inside a mark or before a block starter', () => {
    const line = Array.from(
      { length: 3000 },
      (_, i) => `word **bold ${i}** \`code ${i}\` [link ${i}](https://example.com/${i}) - ${i} # x`,
    ).join(' ');
    const { blocks, chunks } = splitBlocksIncremental(null, `Intro.\n\n${line}\n\nAfter.\n`);
    const pieces = blocks.filter((_, i) => chunks[i]?.kind === 'paragraph');
    expect(pieces.length).toBeGreaterThan(line.length / (2 * CHUNK));
    for (const piece of pieces) {
      expect(piece.split('**').length % 2).toBe(1);
      expect(piece.split('`').length % 2).toBe(1);
      expect(piece.split('[').length).toBe(piece.split(']').length);
    }
    for (const piece of pieces.slice(1)) expect(piece).toMatch(/^\p{L}/u);
  });
});
