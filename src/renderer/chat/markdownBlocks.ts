// Splits Markdown into its top-level blocks with marked's lexer, so a streaming reply
// re-parses only its growing tail: finished blocks keep their text and stay memoized.
import { Lexer } from 'marked';

export interface Blocks {
  text: string;
  /** Top-level blocks; joined they give back `text` exactly. */
  blocks: string[];
}

// Reference links and footnotes resolve across blocks: such text is rendered whole.
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
/** Blocks before the last few are taken as final while text is appended. */
const RELEX_TAIL = 2;

export function splitBlocks(text: string): string[] {
  if (!text) return [];
  if (DEFINITION.test(text)) return [text];
  const blocks: string[] = [];
  let mathOpen = false;
  let at = 0;
  // Block tokens only: the inline pass that `Lexer.lex` adds is a third of its time, and
  // only the blocks' raw text is used here.
  for (const token of new Lexer({ gfm: true }).blockTokens(text)) {
    // marked trims a few raws (e.g. a list's trailing spaces): from there on, one block.
    if (!text.startsWith(token.raw, at)) break;
    at += token.raw.length;
    // Blank lines belong to the block before them, so offsets stay contiguous.
    const joinPrevious = blocks.length > 0 && (token.type === 'space' || mathOpen);
    if (joinPrevious) blocks[blocks.length - 1] += token.raw;
    else blocks.push(token.raw);
    // A `$$` display-math block may span blank lines: keep it in one block until closed.
    if (token.type !== 'code' && token.type !== 'space' && countMathFences(token.raw) % 2 === 1) mathOpen = !mathOpen;
  }
  if (at < text.length) {
    if (blocks.length) blocks[blocks.length - 1] += text.slice(at);
    else blocks.push(text);
  }
  return blocks;
}

function countMathFences(raw: string): number {
  return raw.split('$$').length - 1;
}

/** Splits `text`, reusing `previous` when the text only grew: only its last blocks are lexed again. */
export function splitBlocksIncremental(previous: Blocks | null, text: string): Blocks {
  if (!previous || previous.blocks.length <= RELEX_TAIL || !text.startsWith(previous.text)) {
    return { text, blocks: splitBlocks(text) };
  }
  if (text.length === previous.text.length) return previous;
  const keep = previous.blocks.slice(0, -RELEX_TAIL);
  const offset = keep.reduce((sum, block) => sum + block.length, 0);
  const tail = text.slice(offset);
  // A definition arriving late changes how everything renders.
  if (DEFINITION.test(tail)) return { text, blocks: [text] };
  return { text, blocks: keep.concat(splitBlocks(tail)) };
}
