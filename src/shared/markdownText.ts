// Turns untrusted text (task titles, descriptions, conversation titles) into Markdown that
// renders as exactly that text on GitHub and in Obsidian: it can never open a link, a
// checkbox, a heading, a table, a code span or any other structure. Bidirectional
// controls are shown as visible markers, so no title can display reversed.
import { revealBidiControls } from './bidi';

/**
 * Characters that start inline structure somewhere: CommonMark (`\` `` ` `` `*` `_` `[`
 * `]` `<` `>` `&` `#`), GFM (`~` strikethrough, `|` tables), math on GitHub and Obsidian
 * (`$`), and Obsidian's `==highlight==`, `%%comment%%` and `^block-id`. All are ASCII
 * punctuation, so a backslash before each is a plain CommonMark escape.
 */
const INLINE_SPECIAL = /[\\`*_[\]<>&#~|$=%^]/g;

/** Line breaks of every kind, including the Unicode separators. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/**
 * GFM turns bare `https://…` and `www.…` text into links. Its tokenizer would keep our
 * backslashes inside such a link, so the URL start is escaped to stop the tokenizer; GFM
 * renderers then still link the text (GitHub and remark find URLs in the unescaped text),
 * showing it exactly as written.
 */
function escapeUrlStarts(text: string): string {
  return text.replace(/\b(https?):(?=\/\/)/gi, '$1\\:').replace(/\b(www)\./gi, '$1\\.');
}

/** Escapes text that stays on one line: line breaks become spaces. */
export function escapeMarkdownLine(text: string): string {
  const oneLine = revealBidiControls(text.split(LINE_BREAK).join(' ').trim());
  return escapeLineStart(escapeUrlStarts(oneLine.replace(INLINE_SPECIAL, (c) => `\\${c}`)));
}

/** Escapes what only means something at the start of a line: `-`/`+` bullets, `1.`/`1)` ordered items. */
function escapeLineStart(line: string): string {
  if (/^[-+]/.test(line)) return `\\${line}`;
  return line.replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

/**
 * Escapes multi-line text for use as indented lines under a list item. Each line is
 * escaped and trimmed (so it cannot become indented code); blank lines are dropped so
 * the list stays tight. Lines after the first end in a hard break on the previous one.
 */
export function escapeMarkdownLines(text: string): string[] {
  return text
    .split(LINE_BREAK)
    .map((line) => escapeMarkdownLine(line))
    .filter((line) => line.length > 0);
}

/**
 * Wraps text in a code span that nothing inside can close: the fence is one backtick
 * longer than the longest run of backticks in the text.
 */
export function codeSpan(text: string): string {
  const oneLine = text.split(LINE_BREAK).join(' ');
  const longest = Math.max(0, ...(oneLine.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') || /^ .* $/.test(oneLine) ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** Shortens text to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** `2026-05-01 09:30 UTC`: unambiguous wherever the file is read. */
export function formatUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * Closes a code fence left open in Markdown written by a person or a model, so one
 * message cannot swallow the rest of an exported document.
 */
export function closeOpenFence(markdown: string): string {
  let open: { char: string; length: number } | null = null;
  for (const line of markdown.split(LINE_BREAK)) {
    const match = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!match) continue;
    const run = match[1];
    if (!open) {
      if (run[0] === '`' && line.slice(match[0].length).includes('`')) continue;
      open = { char: run[0], length: run.length };
    } else if (run[0] === open.char && run.length >= open.length && line.slice(match[0].length).trim() === '') {
      open = null;
    }
  }
  return open ? `${markdown}\n${open.char.repeat(open.length)}` : markdown;
}

/**
 * Keeps raw HTML in Markdown from a person or a model inert, as the app renders it: a `<`
 * that would open a tag, comment or declaration is escaped, except inside code (fenced,
 * indented, or a code span), which shows text verbatim anyway.
 */
export function escapeRawHtml(markdown: string): string {
  let fence: { char: string; length: number } | null = null;
  return markdown
    .split(/\r\n|\n|\r/)
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (fence) {
        const closes =
          marker &&
          marker[1][0] === fence.char &&
          marker[1].length >= fence.length &&
          !line.slice(marker[0].length).trim();
        if (closes) fence = null;
        return line;
      }
      if (marker && !(marker[1][0] === '`' && line.slice(marker[0].length).includes('`'))) {
        fence = { char: marker[1][0], length: marker[1].length };
        return line;
      }
      // Four spaces or a tab in: indented code (or text nested in a list, left as is).
      if (/^( {4}|\t)/.test(line)) return line;
      return escapeTagsOutsideCodeSpans(line);
    })
    .join('\n');
}

function escapeTagsOutsideCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
    } else if (ch === '`') {
      const run = /^`+/.exec(line.slice(i))![0];
      let close = line.indexOf(run, i + run.length);
      while (close !== -1 && (line[close - 1] === '`' || line[close + run.length] === '`'))
        close = line.indexOf(run, close + 1);
      const end = close === -1 ? i + run.length : close + run.length;
      out += line.slice(i, end);
      i = end;
    } else if (ch === '<' && /[A-Za-z/!?]/.test(line[i + 1] ?? '')) {
      out += '\\<';
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
