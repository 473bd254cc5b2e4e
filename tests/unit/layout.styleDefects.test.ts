// Two styling defects the new-user walk found (issue 34): blockquotes had no visible
// marker, and the plan-comment box kept the browser's white field in dark mode.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = path.resolve(import.meta.dirname, '../../src/renderer');
/** The declarations of the rule whose selector list includes `selector`. */
function rule(file: string, selector: string): string {
  const css = fs.readFileSync(path.join(RENDERER, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  for (const match of css.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    if (
      match[1]
        .split(',')
        .map((s) => s.trim())
        .includes(selector)
    )
      return match[2];
  }
  return '';
}

describe('styles', () => {
  it('gives a blockquote in a reply a visible marker', () => {
    expect(rule('chat/markdownBody.css', '.markdown blockquote')).toMatch(/border-left:\s*3px solid var\(--border\)/);
  });

  it('draws the plan-comment boxes with the theme field style (dark mode included)', () => {
    for (const selector of ['.plan-comment-input', '.plan-general-comment']) {
      const declarations = rule('plans/PlanReviewCard.css', selector);
      expect(declarations).toContain('background: var(--panel)');
      expect(declarations).toContain('color: var(--text)');
      expect(declarations).toContain('border: 1px solid var(--border)');
    }
  });
});
