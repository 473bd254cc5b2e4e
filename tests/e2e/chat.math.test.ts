// Math in replies renders with KaTeX ($…$, $$…$$, \(…\), \[…\]); broken TeX shows as its
// source; KaTeX loads only when a reply has math, and the page stays free of raw HTML.
import { describe, expect, it } from 'vitest';
import { appPerFile } from './support/appPerFile';

const REPLY = [
  'Euler: $e^{i\\pi}+1=0$.',
  '',
  '$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$',
  '',
  'Also \\(a^2+b^2=c^2\\) and \\[\\sum_{n=1}^{\\infty} \\frac{1}{n^2}\\]',
  '',
  'Broken: $\\frac{1$ stays readable.',
].join('\n');

const { app } = appPerFile({
  name: 'math',
  server: { script: (request) => (request.body.stream ? { text: REPLY } : { text: 'Math' }) },
  env: { OPENAI_API_KEY: undefined },
});

describe('math', () => {
  it('renders every delimiter form with KaTeX and shows broken TeX as source', async () => {
    const { page } = app;
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    // KaTeX is not part of the first paint.
    expect(await page.evaluate(() => [...document.styleSheets].some((s) => (s.href ?? '').includes('katex')))).toBe(
      false,
    );
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Show me some math');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const reply = page.getByRole('article', { name: 'Assistant message' }).last();
    await expect.poll(() => reply.locator('.katex').count(), { timeout: 15_000 }).toBe(4);
    // Display forms are display math, inline forms inline.
    expect(await reply.locator('.katex-display').count()).toBe(2);
    // KaTeX's MathML carries the formula for screen readers.
    expect(await reply.locator('.katex-mathml annotation').first().textContent()).toBe('e^{i\\pi}+1=0');
    // Broken TeX is shown as written, not as a thrown error.
    expect(await reply.locator('.katex-error').textContent()).toBe('\\frac{1');
    expect(await reply.innerText()).toContain('stays readable');
    expect(errors.filter((e) => /Content Security Policy|katex/i.test(e))).toEqual([]);
  });
});
