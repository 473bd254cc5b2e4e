// Layout checks on bounding boxes (issue 26): the view's scroll column reaches the window's
// right edge, nothing scrolls sideways, no control is cut off by a box around it, and the
// labels of one row share a baseline. Returns the problems found, one line each.
import type { Page } from 'playwright-core';

export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const describe = (el: Element) => {
      const name = el.getAttribute('aria-label') ?? (el as HTMLElement).innerText?.trim().slice(0, 40) ?? '';
      return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} "${name}"`;
    };
    const shown = (el: Element) => {
      if (el.closest('[inert], [hidden], .sr-only')) return false;
      const rect = el.getBoundingClientRect();
      return rect.width > 1 && rect.height > 1 && getComputedStyle(el).visibility !== 'hidden';
    };
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowY);

    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth)
      problems.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);

    // The view's scroll column: the largest scrolling box in the main column.
    const main = document.querySelector('main')!;
    const columns = [...main.querySelectorAll('*')].filter((el) => scrolls(el) && shown(el));
    const column = columns.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
    if (!column) problems.push('no scroll column in the main area');
    else {
      const right = column.getBoundingClientRect().right;
      if (Math.abs(width - right) > 2)
        problems.push(`the scroll column ${describe(column)} ends at ${right}, the window at ${width}`);
    }
    for (const el of document.querySelectorAll('*')) {
      if (!shown(el)) continue;
      const x = getComputedStyle(el).overflowX;
      if (
        (x === 'auto' || x === 'scroll') &&
        el.scrollWidth > el.clientWidth + 1 &&
        !el.closest('pre, .markdown table, .code-block')
      ) {
        problems.push(`${describe(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }

    // Controls: inside the window and inside every box that clips them (sideways; a
    // scrolling box may hide them above or below, that is what it is for).
    const controls = document.querySelectorAll(
      'button, input:not([type="radio"]), select, textarea, a[href], [role="combobox"]',
    );
    for (const control of controls) {
      if (!shown(control)) continue;
      const box = control.getBoundingClientRect();
      if (box.left < -1 || box.right > width + 1)
        problems.push(`${describe(control)} is outside the window (${box.left}–${box.right})`);
      // Inside a scrolling box, being out of sight above or below is scrolling, not clipping.
      let scrolled = false;
      for (let el = control.parentElement; el && el !== document.body; el = el.parentElement) {
        const style = getComputedStyle(el);
        if (style.overflowX === 'visible') continue;
        const clip = el.getBoundingClientRect();
        if (box.left < clip.left - 1 || box.right > clip.right + 1) {
          problems.push(`${describe(control)} is cut off by ${describe(el)}`);
          break;
        }
        if (scrolls(el)) scrolled = true;
        else if (!scrolled && (box.top < clip.top - 1 || box.bottom > clip.bottom + 1)) {
          problems.push(`${describe(control)} is cut off (top or bottom) by ${describe(el)}`);
          break;
        }
      }
    }

    // Field labels that share a row (their boxes overlap vertically) share a baseline: the
    // same font, so the same bottom.
    const labels = [...document.querySelectorAll('.field > span, .field > label, .connect-field')]
      .filter(shown)
      .map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el.firstChild ?? el);
        const line = range.getClientRects()[0] ?? el.getBoundingClientRect();
        return { el, top: line.top, bottom: line.bottom };
      });
    for (const a of labels) {
      for (const b of labels) {
        if (a === b || a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (overlap > 0 && Math.abs(a.bottom - b.bottom) > 1) {
          problems.push(
            `labels ${describe(a.el)} and ${describe(b.el)} share a row but not a baseline (${a.bottom} vs ${b.bottom})`,
          );
        }
      }
    }
    return [...new Set(problems)];
  });
}

export const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];
