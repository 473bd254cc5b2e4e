// A block without GFM syntax is parsed without remark-gfm (half the cost): it must come
// out exactly as it would with it, and every GFM construct must still get GFM.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { mayUseGfm } from '../../src/renderer/chat/gfmSyntax';

// The Markdown syntax trees: the same tree gives the same HTML.
const withGfm = unified().use(remarkParse).use(remarkGfm);
const without = unified().use(remarkParse);
const tree = (processor: typeof without, text: string) =>
  JSON.stringify(processor.runSync(processor.parse(text)), (key, value: unknown) =>
    key === 'position' ? undefined : value,
  );

// Markdown-ish text: syntax characters, words and line breaks, and now and then one of GFM's starters.
const common = fc.constantFrom(
  '*',
  '**',
  '_',
  '`',
  '```',
  '#',
  '# ',
  '- ',
  '+ ',
  '1. ',
  '> ',
  '[',
  ']',
  '(',
  ')',
  '!',
  '\\',
  '<',
  '>',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\t',
  'word',
  'Ünïcode',
  'a.b',
  'x:y',
  ':',
  '.',
  'www',
  'http',
  'x',
  '[a]',
  '[a]: /b',
  '---',
  '***',
  '-',
  ':',
  '\n-',
  '\n:',
  '    code',
);
const gfmish = fc.constantFrom(
  '|',
  '~',
  '~~',
  '@',
  '[ ]',
  '[x]',
  '[^1]',
  'www.example.com',
  'https://a.b',
  'me@x.org',
  '|-|',
  '&#119;',
  '&#64;',
  '&amp;',
);
const markdown = fc
  .array(fc.oneof({ weight: 30, arbitrary: common }, { weight: 1, arbitrary: gfmish }), { maxLength: 40 })
  .map((parts) => parts.join(''));

describe('parsing without GFM where a block has none of its syntax', () => {
  it('gives the same tree as parsing with GFM', () => {
    let plainOnes = 0;
    fc.assert(
      fc.property(markdown, (text) => {
        if (mayUseGfm(text)) return;
        plainOnes++;
        expect(tree(without, text)).toBe(tree(withGfm, text));
      }),
      // GFM_RUNS=150000 for a longer search (passed 150,000 when written).
      { numRuns: Number(process.env.GFM_RUNS ?? 10_000) },
    );
    // Most generated texts had no GFM syntax, so the check above was not vacuous.
    expect(plainOnes).toBeGreaterThan(3000);
  }, 60_000);

  it('sends every GFM construct to GFM', () => {
    const samples = [
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '~~gone~~',
      '~one~',
      'see www.example.com',
      'see www\\.example.com',
      'see &#119;ww.example.com',
      'mail me&#64;example.org',
      'at https://example.com/x',
      'HTTP://EXAMPLE.COM',
      'mail me@example.org',
      'mailto:me@example.org',
      '- [ ] todo\n- [x] done',
      '- [X] done',
      '- [\t] tabbed',
      'one column\n:-',
      'one column\n-:',
      'a note[^1]\n\n[^1]: the note',
    ];
    for (const text of samples) {
      expect(mayUseGfm(text), text).toBe(true);
      // And GFM does change each of them (so the list above is not vacuous).
      expect(tree(withGfm, text), text).not.toBe(tree(without, text));
    }
  });
});
