// Compares the CSS of two renderer builds rule by rule: the proof that moving styles between
// files kept every declaration and changed no cascade outcome.
//
//   npm run build && cp -r out/renderer /tmp/renderer-before   (on the commit before)
//   npm run build && npm run css-check -- /tmp/renderer-before out/renderer
//
// Exits 1 when a declaration was lost or added; flipped pairs are printed for review.
//
// Chromium parses every stylesheet of each build (CSSOM, so shorthands come out as the
// longhands they set). Each declaration becomes (at-rule context, one selector, property,
// value). The check reports declarations only one build has, declarations that moved to
// another stylesheet (a lazy chunk loads later, so it wins ties), and every pair of
// declarations of the same property and specificity whose order flipped: the only way a
// reordering can change what an element looks like. A flipped pair is harmless when its
// two selectors never match one element; the report lists them to be judged by hand.
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../tests/e2e/support/app';

interface Declaration {
  sheet: string;
  context: string;
  selector: string;
  property: string;
  value: string;
}

interface Placed extends Declaration {
  /** Lazy chunks load after the first-paint sheet: their rules come later in the cascade. */
  lazy: boolean;
  index: number;
}

/** Stylesheets in cascade order: those index.html links first, then the lazy chunks. */
function sheetsOf(dir: string): { name: string; text: string; lazy: boolean }[] {
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const linked = [...html.matchAll(/href="\.\/assets\/([^"]+\.css)"/g)].map((m) => m[1]);
  const all = fs
    .readdirSync(path.join(dir, 'assets'))
    .filter((f) => f.endsWith('.css'))
    .sort();
  const ordered = [...linked, ...all.filter((f) => !linked.includes(f))];
  return ordered.map((file) => ({
    name: file.replace(/-[\w-]{8}\.css$/, ''),
    text: fs.readFileSync(path.join(dir, 'assets', file), 'utf8'),
    lazy: !linked.includes(file),
  }));
}

async function declarationsOf(dir: string): Promise<Placed[]> {
  const sheets = sheetsOf(dir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // tsx keeps function names with a helper the page does not have.
    await page.evaluate('globalThis.__name = (f) => f');
    const parsed = await page.evaluate((sheets) => {
      const out: { sheet: string; context: string; selector: string; property: string; value: string }[] = [];
      const splitSelectors = (text: string) => {
        const parts: string[] = [];
        let depth = 0;
        let start = 0;
        for (let i = 0; i < text.length; i++) {
          if (text[i] === '(' || text[i] === '[') depth++;
          else if (text[i] === ')' || text[i] === ']') depth--;
          else if (text[i] === ',' && depth === 0) {
            parts.push(text.slice(start, i).trim());
            start = i + 1;
          }
        }
        parts.push(text.slice(start).trim());
        return parts;
      };
      const walk = (rules: CSSRuleList, sheet: string, context: string) => {
        for (const rule of rules) {
          if (rule instanceof CSSStyleRule) {
            for (const selector of splitSelectors(rule.selectorText)) {
              for (const property of rule.style) {
                const priority = rule.style.getPropertyPriority(property);
                out.push({
                  sheet,
                  context,
                  selector,
                  property,
                  value: rule.style.getPropertyValue(property) + (priority ? ' !important' : ''),
                });
              }
            }
          } else if (rule instanceof CSSMediaRule || rule instanceof CSSSupportsRule) {
            walk(rule.cssRules, sheet, `${context}@${rule.conditionText} `);
          } else {
            // @keyframes, @font-face and the like: compared as a whole.
            out.push({ sheet, context, selector: rule.cssText, property: '', value: '' });
          }
        }
      };
      for (const { name, text } of sheets) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(text);
        walk(sheet.cssRules, name, '');
      }
      return out;
    }, sheets);
    const lazy = new Set(sheets.filter((s) => s.lazy).map((s) => s.name));
    return parsed.map((d, index) => ({ ...d, lazy: lazy.has(d.sheet), index }));
  } finally {
    await browser.close();
  }
}

/** [ids, classes/attributes/pseudo-classes, types/pseudo-elements] of one selector. */
function specificity(selector: string): [number, number, number] {
  let s = selector;
  const result: [number, number, number] = [0, 0, 0];
  // :where() counts nothing; :is() / :not() / :has() count their (here: first) argument.
  s = s.replace(/:where\((?:[^()]|\([^()]*\))*\)/g, '');
  s = s.replace(/:(is|not|has)\(((?:[^()]|\([^()]*\))*)\)/g, (_m, _name, inner: string) =>
    ` ${inner.split(',')[0]} `.replace(/^\s*[>+~]\s*/, ' '),
  );
  s = s.replace(/\[[^\]]*\]/g, () => {
    result[1]++;
    return ' ';
  });
  s = s.replace(/::[\w-]+(\([^)]*\))?/g, () => {
    result[2]++;
    return ' ';
  });
  s = s.replace(/#[\w-]+/g, () => {
    result[0]++;
    return ' ';
  });
  s = s.replace(/(\.[\w-]+|:[\w-]+(\([^)]*\))?)/g, () => {
    result[1]++;
    return ' ';
  });
  for (const part of s.split(/[\s>+~]+/)) if (/^[a-zA-Z][\w-]*$/.test(part)) result[2]++;
  return result;
}

/**
 * Which classes can sit on one element, read from the renderer's source: the string literals
 * of each line that sets a className are one group (`task-${kind}` is the pattern task-*,
 * `${props.className}` any other group). Classes set by libraries (hljs-*, katex) belong to
 * no group; they are only checked against each other and against selectors without classes.
 */
interface ClassGroup {
  names: Set<string>;
  patterns: RegExp[];
  open: boolean;
}

function classGroups(dir: string): ClassGroup[] {
  const groups: ClassGroup[] = [];
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
  for (const file of files) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.includes('classList')) {
        // Added by code to an element of any other group.
        const names = [...line.matchAll(/'([\w-]+)'/g)].map((m) => m[1]);
        groups.push({ names: new Set(names), patterns: [], open: true });
        continue;
      }
      const at = line.indexOf('className');
      if (at < 0) continue;
      // From className to the next JSX attribute: a key or aria-label's template is no class.
      const value = line.slice(at).replace(/\s[\w-]+=[{"'].*$/, '');
      const group: ClassGroup = { names: new Set(), patterns: [], open: false };
      const literals = [...value.matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      for (const literal of literals) {
        const text = literal
          .replace(/\$\{([^}]*)\}/g, (_m, inner: string) => (/['"]/.test(inner) ? ' ' : '*'))
          .replace(/(^|\s)\*(?=\s|$)/g, () => {
            group.open = true;
            return ' ';
          });
        for (const token of text.split(/\s+/).filter((t) => /^[\w*-]+$/.test(t))) {
          if (token.includes('*') && token.replace(/[*-]/g, '').length < 3) group.open = true;
          else if (token.includes('*')) group.patterns.push(new RegExp(`^${token.replaceAll('*', '[\\w-]*')}$`));
          else group.names.add(token);
        }
      }
      if (/className=\{[\w.]+\}/.test(value)) group.open = true;
      if (group.names.size || group.patterns.length || group.open) groups.push(group);
    }
  }
  return groups;
}

/** The element a selector styles: its last compound's type, classes and pseudo-element. */
function subjectOf(selector: string): { type: string; classes: string[]; pseudoElement: string } {
  const withoutArgs = selector.replace(/\((?:[^()]|\([^()]*\))*\)/g, '()').replace(/\[[^\]]*\]/g, '[]');
  const compound =
    withoutArgs
      .split(/\s*[\s>+~]\s*/)
      .filter(Boolean)
      .at(-1) ?? '';
  return {
    type: /^[a-zA-Z][\w-]*/.exec(compound)?.[0] ?? '',
    classes: [...compound.matchAll(/\.([\w-]+)/g)].map((m) => m[1]),
    pseudoElement: /::[\w-]+/.exec(compound)?.[0] ?? '',
  };
}

function coverOf(groups: ClassGroup[]) {
  const covers = (group: ClassGroup, name: string) => group.names.has(name) || group.patterns.some((p) => p.test(name));
  const known = (name: string) => groups.some((g) => covers(g, name));
  const together = (names: string[]) =>
    groups.some((g) => names.every((n) => covers(g, n))) ||
    groups.some((open) => open.open && groups.some((g) => names.every((n) => covers(open, n) || covers(g, n))));
  /** Whether one element can match both selectors. */
  return (a: string, b: string): boolean => {
    const [x, y] = [subjectOf(a), subjectOf(b)];
    if (x.type && y.type && x.type !== y.type) return false;
    if (x.pseudoElement !== y.pseudoElement) return false;
    const names = [...new Set([...x.classes, ...y.classes])];
    if (names.length <= 1) return true;
    const foreign = names.filter((n) => !known(n));
    if (foreign.length) return foreign.length === names.length;
    return together(names);
  };
}

const keyOf = (d: Declaration) => `${d.context}|${d.selector}|${d.property}|${d.value}`;

function countBy(list: Placed[]): Map<string, Placed[]> {
  const map = new Map<string, Placed[]>();
  for (const d of list) map.set(keyOf(d), [...(map.get(keyOf(d)) ?? []), d]);
  return map;
}

/** Cascade rank: lazy sheets after the linked one, two different lazy sheets unordered. */
function before(a: Placed, b: Placed): boolean | null {
  if (a.lazy !== b.lazy) return b.lazy;
  if (a.lazy && a.sheet !== b.sheet) return null;
  return a.index < b.index;
}

async function main(beforeDir: string, afterDir: string): Promise<number> {
  const [old, now] = await Promise.all([declarationsOf(beforeDir), declarationsOf(afterDir)]);
  const oldByKey = countBy(old);
  const nowByKey = countBy(now);
  let problems = 0;

  const only = (a: Map<string, Placed[]>, b: Map<string, Placed[]>) =>
    [...a.entries()].filter(([key, list]) => (b.get(key)?.length ?? 0) < list.length).map(([key]) => key);
  const lost = only(oldByKey, nowByKey);
  const added = only(nowByKey, oldByKey);
  for (const key of lost) console.log(`only before: ${key}`);
  for (const key of added) console.log(`only after:  ${key}`);
  problems += lost.length + added.length;

  // The last occurrence decides the cascade; compare that one's place.
  const last = (list: Placed[]) => list.reduce((a, b) => (before(a, b) === false ? a : b));
  const moved = [...oldByKey.keys()].filter(
    (key) => nowByKey.has(key) && last(oldByKey.get(key)!).sheet !== last(nowByKey.get(key)!).sheet,
  );
  const movedSheets = new Map<string, number>();
  for (const key of moved) {
    const route = `${last(oldByKey.get(key)!).sheet} → ${last(nowByKey.get(key)!).sheet}`;
    movedSheets.set(route, (movedSheets.get(route) ?? 0) + 1);
  }
  for (const [route, count] of movedSheets) console.log(`moved between sheets: ${route}: ${count} declarations`);

  // Pairs of the same property and specificity, different values, whose order flipped.
  const byProperty = new Map<string, string[]>();
  for (const key of oldByKey.keys()) {
    if (!nowByKey.has(key)) continue;
    const d = oldByKey.get(key)![0];
    if (!d.property) continue;
    byProperty.set(d.property, [...(byProperty.get(d.property) ?? []), key]);
  }
  const sameElement = coverOf(classGroups(path.join(import.meta.dirname, '../src/renderer')));
  const flips = new Set<string>();
  let disjoint = 0;
  for (const keys of byProperty.values()) {
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        const [a0, b0] = [last(oldByKey.get(keys[i])!), last(oldByKey.get(keys[j])!)];
        if (a0.value === b0.value) continue;
        if (specificity(a0.selector).join() !== specificity(b0.selector).join()) continue;
        const [a1, b1] = [last(nowByKey.get(keys[i])!), last(nowByKey.get(keys[j])!)];
        const was = before(a0, b0);
        const is = before(a1, b1);
        if (was === null || is === null || was === is) continue;
        if (!sameElement(a0.selector, b0.selector)) {
          disjoint++;
          continue;
        }
        const [first, second] = was ? [a0, b0] : [b0, a0];
        flips.add(
          `${first.selector}  ⇄  ${second.selector}   (${first.property}; before: ${first.sheet} then ${second.sheet})`,
        );
      }
    }
  }
  for (const flip of [...flips].sort()) console.log(`order flipped: ${flip}`);
  console.log(
    `${old.length} declarations before, ${now.length} after; ${lost.length} only before, ${added.length} only after; ${moved.length} moved sheet; ` +
      `${flips.size} same-specificity pairs that can style one element flipped order (${disjoint} more whose selectors never meet).`,
  );
  return problems;
}

const [beforeDir, afterDir] = process.argv.slice(2);
if (!beforeDir || !afterDir) {
  console.error('Usage: tsx scripts/cssCascadeCheck.ts <renderer-before> <renderer-after>');
  process.exitCode = 2;
} else {
  process.exitCode = (await main(path.resolve(beforeDir), path.resolve(afterDir))) ? 1 : 0;
}
