import { describe, expect, it } from 'vitest';
import { mayContainMath, normalizeMathDelimiters } from '../../src/renderer/chat/mathDelimiters';

describe('math delimiters', () => {
  it('rewrites \\(…\\) and \\[…\\] to the dollar forms remark-math reads', () => {
    expect(normalizeMathDelimiters('Euler: \\(e^{i\\pi}+1=0\\) and \\[x^2\\]')).toBe(
      'Euler: $e^{i\\pi}+1=0$ and \n$$\nx^2\n$$\n',
    );
    // A line that is only $$…$$ becomes display math too.
    expect(normalizeMathDelimiters('Area:\n\n$$ a = \\pi r^2 $$\n\nDone')).toBe(
      'Area:\n\n$$\na = \\pi r^2\n$$\n\nDone',
    );
  });

  it('leaves code alone', () => {
    const text = 'Use `\\(x\\)` or\n\n```tex\n\\[y\\]\n```\n\nbut \\(z\\)';
    expect(normalizeMathDelimiters(text)).toBe('Use `\\(x\\)` or\n\n```tex\n\\[y\\]\n```\n\nbut $z$');
    expect(normalizeMathDelimiters('```\n$$ x $$\n```')).toBe('```\n$$ x $$\n```');
  });

  it('says whether KaTeX is worth loading', () => {
    expect(mayContainMath('costs 5 dollars')).toBe(false);
    expect(mayContainMath('$x$')).toBe(true);
    expect(mayContainMath('\\(x\\)')).toBe(true);
    expect(mayContainMath('\\[x\\]')).toBe(true);
  });
});
