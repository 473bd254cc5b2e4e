// A search result's snippet: a few words of a message around the first word the query
// matches, folded as the index's unicode61 tokenizer folds (case and accents). FTS5's
// snippet() re-reads a prefix query's whole doclist per row, which costs seconds for a
// common word; the index already chose the message, so only the hit is looked for here.

// Snippet markers: control characters no message contains, turned into highlights by the UI.
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

export const WORD = /[\p{L}\p{N}_]+/gu;
const NOT_ASCII = /[\u0080-\uffff]/;

// Folds case and accents the way the index's unicode61 tokenizer does.
export const fold = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

interface Token {
  at: number;
  end: number;
  hit: boolean;
}

/** Tells whether one word of the text matches: a query word, the last one as a prefix. */
function matcher(words: string[]) {
  const last = words.length - 1;
  // The first characters a match can start with, when each is plain ASCII (folding keeps
  // an ASCII first character as its lower case); otherwise every word is folded.
  const starts = words.every((w) => w.length > 0 && w.charCodeAt(0) < 128)
    ? new Set(words.map((w) => w.charCodeAt(0)))
    : null;
  return (token: string) => {
    if (starts) {
      const code = token.charCodeAt(0);
      if (code < 128 && !starts.has(code >= 65 && code <= 90 ? code + 32 : code)) return false;
    }
    const folded = fold(token);
    return words.some((w, i) => folded === w || (i === last && folded.startsWith(w)));
  };
}

/**
 * Where the first hit starts, found by a case-insensitive search of the text without
 * reading its words: exact while everything before the hit is ASCII (an ASCII word folds to
 * its lower case only). Otherwise, or when the candidate is not a whole hit (a non-ASCII
 * letter right after it), the words are read one at a time up to the first hit.
 */
function firstHit(text: string, words: string[], hit: (token: string) => boolean): number {
  if (words.every((w) => !NOT_ASCII.test(w))) {
    const last = words.length - 1;
    const alternatives = words.map((w, i) => (i === last ? w : `${w}(?![A-Za-z0-9_])`));
    const found = new RegExp(`(?<![A-Za-z0-9_])(?:${alternatives.join('|')})`, 'i').exec(text);
    if (!found) {
      if (!NOT_ASCII.test(text)) return -1;
    } else if (!NOT_ASCII.test(text.slice(0, found.index))) {
      const reader = new RegExp(WORD.source, WORD.flags);
      reader.lastIndex = found.index;
      const token = reader.exec(text);
      if (token && token.index === found.index && hit(token[0])) return found.index;
    }
  }
  const reader = new RegExp(WORD.source, WORD.flags);
  for (let next = reader.exec(text); next; next = reader.exec(text)) if (hit(next[0])) return next.index;
  return -1;
}

/**
 * The `around` words before position `at` (none of them a hit: `at` is the first), read
 * from a window before it that grows until it holds one word more than needed or reaches
 * the start; `dropped` says whether words before them were left out.
 */
function wordsBefore(text: string, at: number, around: number): { tokens: Token[]; dropped: boolean } {
  for (let width = 64 * (around + 1); ; width *= 2) {
    const from = Math.max(0, at - width);
    const reader = new RegExp(WORD.source, WORD.flags);
    reader.lastIndex = from;
    const tokens: Token[] = [];
    for (let next = reader.exec(text); next && next.index < at; next = reader.exec(text)) {
      tokens.push({ at: next.index, end: next.index + next[0].length, hit: false });
    }
    // A word the window starts inside of is not whole: it counts only as one before the rest.
    const cut = from > 0 && tokens.length > 0 && tokens[0].at === from;
    const whole = cut ? tokens.slice(1) : tokens;
    if (from === 0 || whole.length > around) {
      return { tokens: around > 0 ? whole.slice(-around) : [], dropped: whole.length > around || cut };
    }
  }
}

/**
 * A few words of `text` around the first word the query matches, matched words between
 * MATCH_START and MATCH_END. The hit is looked for first (see firstHit); only the words
 * around it are read.
 */
export function snippetOf(text: string, query: string, around = 10): string | null {
  const words = (query.match(WORD) ?? []).map(fold);
  if (!words.length) return null;
  const hit = matcher(words);
  const at = firstHit(text, words, hit);
  if (at < 0) return null;
  const { tokens, dropped } = wordsBefore(text, at, around);
  const found = tokens.length;
  const reader = new RegExp(WORD.source, WORD.flags);
  reader.lastIndex = at;
  let next = reader.exec(text);
  for (; next && tokens.length - found <= around; next = reader.exec(text)) {
    tokens.push({ at: next.index, end: next.index + next[0].length, hit: hit(next[0]) });
  }
  let out = dropped ? '…' : '';
  let cursor = tokens[0].at;
  for (const token of tokens) {
    out += text.slice(cursor, token.at);
    const word = text.slice(token.at, token.end);
    out += token.hit ? `${MATCH_START}${word}${MATCH_END}` : word;
    cursor = token.end;
  }
  out += next ? '…' : text.slice(cursor);
  return out.replace(/\s+/g, ' ').trim();
}
