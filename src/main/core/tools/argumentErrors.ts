// Why a tool call's arguments were refused, in words a model can act on: each zod issue
// in plain grammar, and every top-level key the tool does not know, with the key it
// probably meant ("unknown key 'todos'; did you mean 'todoList'?").
import type { z } from 'zod';

const ARTICLE: Record<string, string> = { array: 'an', object: 'an', integer: 'an' };
/** zod 4 names some expected types in its own words. */
const TYPE_WORDS: Record<string, string> = { int: 'integer' };

/** Ends a message as a sentence; a closing parenthesis is not an ending. */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Issues in words a model can act on, e.g. `taskId must be an integer; title is required`. */
export function describeIssues(error: z.ZodError): string {
  return issueTexts(error).join('; ');
}

function issueTexts(error: z.ZodError, skipRequired: ReadonlySet<string> = new Set()): string[] {
  const texts: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || 'the arguments';
    const isDefault =
      issue.message.startsWith('Invalid input') ||
      issue.message.startsWith('Too big') ||
      issue.message.startsWith('Too small');
    if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) {
      if (/received undefined/.test(issue.message)) {
        if (!skipRequired.has(path)) texts.push(`${path} is required`);
        continue;
      }
      const expected = TYPE_WORDS[String(issue.expected)] ?? String(issue.expected);
      texts.push(`${path} must be ${ARTICLE[expected] ?? 'a'} ${expected}`);
    } else if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length ? `${path}: ` : '';
      texts.push(issue.keys.map((key) => `${where}unknown key '${key}'`).join('; '));
    } else if (isDefault && (issue.code === 'too_big' || issue.code === 'too_small')) {
      texts.push(`${path} ${boundText(issue)}`);
    } else {
      texts.push(`${path}: ${issue.message}`);
    }
  }
  return texts;
}

function boundText(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const limit = big ? (issue as z.core.$ZodIssueTooBig).maximum : (issue as z.core.$ZodIssueTooSmall).minimum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      return `must be at ${big ? 'most' : 'least'} ${String(limit)} characters long`;
    case 'array':
    case 'set':
      return `must have at ${big ? 'most' : 'least'} ${String(limit)} items`;
    default:
      return `must be ${big ? (inclusive ? 'at most' : 'less than') : inclusive ? 'at least' : 'more than'} ${String(limit)}`;
  }
}

const squash = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, '');

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length];
}

/** The known key an unknown one most likely meant: same letters, a small typo, or a shared stem. */
export function closestKey(unknown: string, known: readonly string[]): string | null {
  const u = squash(unknown);
  let best: { key: string; score: number } | null = null;
  for (const key of known) {
    const k = squash(key);
    const prefix = [...u].findIndex((ch, i) => k[i] !== ch);
    const shared = prefix === -1 ? u.length : prefix;
    const d = distance(u, k);
    const shorter = Math.min(u.length, k.length);
    const close = d <= (shorter >= 4 ? Math.max(2, Math.floor(shorter / 3)) : 1) || shared >= 4;
    if (close && (!best || d < best.score)) best = { key, score: d };
  }
  return best?.key ?? null;
}

/**
 * The whole refusal: zod's issues plus the top-level keys the schema does not name. A
 * key that probably meant a missing required one replaces that "is required".
 */
export function explainInvalid(error: z.ZodError, value: unknown, schema: Record<string, unknown>): string {
  const known = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const given = value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  const unknownKeys = given.filter((key) => !known.includes(key));
  const meant = new Set<string>();
  const hints = unknownKeys.map((key) => {
    const guess = closestKey(
      key,
      known.filter((k) => !given.includes(k)),
    );
    if (guess) {
      meant.add(guess);
      return `unknown key '${key}'; did you mean '${guess}'?`;
    }
    return `unknown key '${key}' (this tool takes ${known.length ? known.map((k) => `'${k}'`).join(', ') : 'no arguments'})`;
  });
  const issues = issueTexts(error, meant).filter((text) => !text.startsWith('unknown key '));
  return sentence([...issues, ...hints].join('; '));
}
