// Splits Markdown into its top-level blocks with marked's lexer, so a streaming reply
// re-parses only its growing tail: finished blocks keep their text and stay memoized.
// One block can be a whole 1 MB reply (12,500 log lines in one paragraph, one code block,
// one table): a block past BIG_BLOCK is cut at line ends into chunks of about CHUNK
// characters, each a block of its own, so no work — lexing the tail, parsing, rendering —
// grows with the size of one block. A chunk remembers what it continues (`Chunk`).
import { Lexer, type Token } from 'marked';

/** How a block continues a big one cut into chunks; absent for an ordinary block. */
export interface Chunk {
  kind: 'paragraph' | 'code' | 'table';
  /** Index of the big block's first chunk: the chunks of one block share it. */
  group: number;
  /** What the chunk needs in front to parse alone: a code fence's opening line, a table's two header lines. */
  head: string;
}

export interface Blocks {
  text: string;
  /** Top-level blocks; joined they give back `text` exactly. */
  blocks: string[];
  /** Per block, what big block it is a chunk of (undefined for an ordinary block). */
  chunks: Array<Chunk | undefined>;
}

// Reference links and footnotes resolve across blocks: such text is rendered whole.
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
/** Blocks before the last few are taken as final while text is appended. */
const RELEX_TAIL = 2;
/** A block longer than this is cut into chunks. */
export const BIG_BLOCK = 16 * 1024;
/** About how long a chunk is: a few ms of parsing. */
export const CHUNK = 4 * 1024;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Characters handed to marked's lexer since the page loaded (tests count the work). */
export const lexed = { chars: 0 };

function lex(text: string): Token[] {
  lexed.chars += text.length;
  // Block tokens only: the inline pass that `Lexer.lex` adds is a third of its time, and
  // only the blocks' raw text is used here.
  return new Lexer({ gfm: true }).blockTokens(text);
}

/**
 * Cuts `raw` at line ends into pieces of about CHUNK characters. A longer line stays whole,
 * except in a paragraph (`words`): a line already CHUNK long where a piece would end is
 * cut after its next space, so one line of 140 kB (a local model's token-by-token reply
 * without a line break) is not parsed and laid out whole on every update. Each cut depends
 * only on the text before it, so appending text never moves one.
 */
function cutLines(raw: string, words = false): string[] {
  const pieces: string[] = [];
  let from = 0;
  while (from < raw.length) {
    const at = from + CHUNK;
    let to = at >= raw.length ? raw.length : raw.indexOf('\n', at);
    if (words && at < raw.length && at - (raw.lastIndexOf('\n', at - 1) + 1) >= CHUNK) {
      const space = wordCut(raw, from, at);
      // Never past the line end found above.
      if (space >= 0 && (to < 0 || space < to)) to = space;
    }
    to = to < 0 ? raw.length : to + 1;
    pieces.push(raw.slice(from, to));
    from = to;
  }
  return pieces;
}

const LETTER = /\p{L}/u;

/**
 * The first space at or after `at` where a paragraph's line can be cut: the next word
 * starts with a letter (so the piece after it cannot open a list, heading or quote) and
 * no code span, emphasis or link bracket is open in the piece before it. -1 if none yet.
 */
function wordCut(raw: string, from: number, at: number): number {
  let ticks = 0;
  let stars = 0;
  let brackets = 0;
  for (let i = from; i < raw.length; i++) {
    const c = raw[i];
    if (c === '`') ticks++;
    else if (c === '*') stars++;
    else if (c === '[') brackets++;
    else if (c === ']') brackets--;
    else if (
      c === ' ' &&
      i >= at &&
      ticks % 2 === 0 &&
      stars % 2 === 0 &&
      brackets === 0 &&
      LETTER.test(raw[i + 1] ?? '')
    )
      return i;
  }
  return -1;
}

function chunkKind(token: Token): Chunk['kind'] | null {
  if (token.type === 'code' && FENCE.test(token.raw)) return 'code';
  if (token.type === 'table') return 'table';
  if (token.type === 'paragraph' || token.type === 'code') return 'paragraph';
  return null;
}

/** The lines a chunk of `raw` needs in front of it to parse alone. */
function headOf(kind: Chunk['kind'], raw: string): string {
  if (kind === 'paragraph') return '';
  const lines = raw.split('\n', kind === 'code' ? 1 : 2);
  return `${lines.join('\n')}\n`;
}

const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const BLOCK_START = /^ {0,3}(#{1,6}(\s|$)|>|`{3,}|~{3,}|[-*+]\s|\d{1,9}[.)]\s)/;
const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').length;

/**
 * The first table longer than BIG_BLOCK that starts a block at column 0, found by a scan
 * of lines (outside code fences) instead of marked's lexer, which takes a quarter of a
 * second for a 10,000-row table when a reply is opened. The table runs until a blank
 * line or the start of another block, like GFM's; blank lines after it belong to it.
 */
function bigTable(text: string): { start: number; end: number } | null {
  let fence: string | null = null;
  let at = 0;
  let blankBefore = true;
  while (at < text.length) {
    const next = text.indexOf('\n', at);
    const end = next < 0 ? text.length : next + 1;
    const line = text.slice(at, end).replace(/\n$/, '');
    const opened = FENCE.exec(line)?.[1];
    if (fence) {
      if (opened && opened[0] === fence[0] && opened.length >= fence.length && !line.trim().slice(opened.length))
        fence = null;
    } else if (opened) fence = opened;
    else if (blankBefore && line.startsWith('|') && end < text.length) {
      const after = text.indexOf('\n', end);
      const delimiter = text.slice(end, after < 0 ? text.length : after);
      if (DELIMITER_ROW.test(delimiter) && cells(delimiter) === cells(line)) {
        let stop = after < 0 ? text.length : after + 1;
        while (stop < text.length) {
          const rowEnd = text.indexOf('\n', stop);
          const row = text.slice(stop, rowEnd < 0 ? text.length : rowEnd);
          if (!row.trim() || (!row.startsWith('|') && BLOCK_START.test(row))) break;
          stop = rowEnd < 0 ? text.length : rowEnd + 1;
        }
        while (stop < text.length && text[stop] === '\n') stop++;
        if (stop - at > BIG_BLOCK) return { start: at, end: stop };
        at = stop;
        blankBefore = true;
        continue;
      }
    }
    blankBefore = !line.trim();
    at = end;
  }
  return null;
}

/**
 * Splits `text` into blocks. `continues`: the text starts inside a big block cut into
 * chunks (its first token belongs to that block, parsed with the chunk's head in front),
 * and the chunks get `group` as theirs.
 */
function split(text: string, continues?: Chunk, groupBase = 0): Omit<Blocks, 'text'> {
  if (!text) return { blocks: [], chunks: [] };
  if (DEFINITION.test(text)) return { blocks: [text], chunks: [undefined] };
  const table = !continues && text.length > BIG_BLOCK ? bigTable(text) : null;
  if (table) {
    const before = split(text.slice(0, table.start), undefined, groupBase);
    const raw = text.slice(table.start, table.end);
    const group = groupBase + before.blocks.length;
    const chunk: Chunk = { kind: 'table', group, head: headOf('table', raw) };
    const pieces = cutLines(raw);
    const after = split(text.slice(table.end), undefined, group + pieces.length);
    return {
      blocks: [...before.blocks, ...pieces, ...after.blocks],
      chunks: [...before.chunks, ...pieces.map(() => chunk), ...after.chunks],
    };
  }
  const head = continues?.head ?? '';
  const source = head + text;
  const blocks: string[] = [];
  const chunks: Array<Chunk | undefined> = [];
  let mathOpen = false;
  let at = 0;
  for (const [index, token] of lex(source).entries()) {
    let raw = token.raw;
    // The first token of a continued block carries the head lent to it: give it back.
    if (index === 0 && head) {
      if (!raw.startsWith(head)) return { blocks: [text], chunks: [undefined] };
      raw = raw.slice(head.length);
    }
    // marked trims a few raws (e.g. a list's trailing spaces): from there on, one block.
    if (!text.startsWith(raw, at)) break;
    at += raw.length;
    // Blank lines belong to the block before them, so offsets stay contiguous.
    const joinPrevious = blocks.length > 0 && (token.type === 'space' || mathOpen);
    const toggleMath = token.type !== 'code' && token.type !== 'space' && countMathFences(raw) % 2 === 1;
    if (joinPrevious) {
      blocks[blocks.length - 1] += raw;
      if (toggleMath) mathOpen = !mathOpen;
      continue;
    }
    const kind = chunkKind(token);
    const continued = index === 0 && continues !== undefined;
    if (kind && (continued || raw.length > BIG_BLOCK)) {
      const chunk: Chunk = continued ? continues : { kind, group: groupBase + blocks.length, head: headOf(kind, raw) };
      for (const piece of cutLines(raw, kind === 'paragraph')) {
        blocks.push(piece);
        chunks.push(chunk);
      }
      continue;
    }
    blocks.push(raw);
    chunks.push(undefined);
    // A `$$` display-math block may span blank lines: keep it in one block until closed.
    if (toggleMath) mathOpen = !mathOpen;
  }
  if (at < text.length) {
    if (blocks.length) blocks[blocks.length - 1] += text.slice(at);
    else {
      blocks.push(text);
      chunks.push(undefined);
    }
  }
  return { blocks, chunks };
}

export function splitBlocks(text: string): string[] {
  return split(text).blocks;
}

function countMathFences(raw: string): number {
  return raw.split('$$').length - 1;
}

/** Splits `text`, reusing `previous` when the text only grew: only its last blocks are lexed again. */
export function splitBlocksIncremental(previous: Blocks | null, text: string): Blocks {
  if (!previous || previous.blocks.length <= RELEX_TAIL || !text.startsWith(previous.text)) {
    return { text, ...split(text) };
  }
  if (text.length === previous.text.length) return previous;
  const cut = previous.blocks.length - RELEX_TAIL;
  const keep = previous.blocks.slice(0, cut);
  const offset = keep.reduce((sum, block) => sum + block.length, 0);
  const tail = text.slice(offset);
  // A definition arriving late changes how everything renders.
  if (DEFINITION.test(tail)) return { text, blocks: [text], chunks: [undefined] };
  // The tail may start inside a block cut into chunks: then it is parsed as its continuation.
  const first = previous.chunks[cut];
  const continues = first && first.group < cut ? first : undefined;
  const rest = split(tail, continues, cut);
  return { text, blocks: keep.concat(rest.blocks), chunks: previous.chunks.slice(0, cut).concat(rest.chunks) };
}
