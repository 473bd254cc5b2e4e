// R1-style models on Ollama and llama.cpp put their reasoning inside `content`, wrapped in
// `<think>…</think>`. This splits streamed content into reasoning and answer as it comes,
// with tags that may be cut anywhere between two chunks. Only a `<think>` that opens the
// reply counts (later ones are part of the answer, e.g. a reply about the tags). Some chat
// templates put the opening tag into the prompt, so the reply starts with the reasoning
// and only `</think>` shows up: the first `</think>` before any answer text moves what
// came before it into the reasoning.

const OPEN = '<think>';
const CLOSE = '</think>';

export interface ContentParts {
  reasoning: string;
  answer: string;
}

/** The longest tail of `text` that could be the start of `tag`. */
function partialTagAt(text: string, tag: string): number {
  // Per streamed chunk: most chunks hold no '<' near their end, and need no slicing at all.
  if (text.lastIndexOf('<') < text.length - (tag.length - 1)) return text.length;
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(-n))) return text.length - n;
  }
  return text.length;
}

export function createThinkSplitter() {
  let mode: 'start' | 'thinking' | 'answer' = 'start';
  /** Text held back because it may be the start of a tag. */
  let held = '';
  /** Whether a `</think>` with no opening tag may still turn the answer so far into reasoning. */
  let closeMayMove = true;
  const out: ContentParts = { reasoning: '', answer: '' };
  let rewrites = 0;

  function feed(piece: string): void {
    let text = held + piece;
    held = '';
    while (text) {
      if (mode === 'start') {
        const trimmed = text.trimStart();
        if (!trimmed) {
          held = text;
          return;
        }
        if (trimmed.startsWith(OPEN)) {
          mode = 'thinking';
          closeMayMove = false;
          text = trimmed.slice(OPEN.length);
          continue;
        }
        if (OPEN.startsWith(trimmed)) {
          held = text;
          return;
        }
        mode = 'answer';
        continue;
      }
      // The answer after a reasoning block starts at its first visible character.
      if (mode === 'answer' && !out.answer && out.reasoning) text = text.replace(/^\s+/, '');
      const tag = mode === 'thinking' || closeMayMove ? CLOSE : null;
      if (!tag) {
        out.answer += text;
        return;
      }
      const at = text.indexOf(tag);
      if (at >= 0) {
        if (mode === 'thinking') {
          out.reasoning += text.slice(0, at);
        } else {
          // The template opened the tag for the model: everything so far was reasoning.
          out.reasoning += out.answer + text.slice(0, at);
          if (out.answer) rewrites++;
          out.answer = '';
        }
        mode = 'answer';
        closeMayMove = false;
        text = text.slice(at + tag.length);
        continue;
      }
      const keep = partialTagAt(text, tag);
      if (mode === 'thinking') out.reasoning += text.slice(0, keep);
      else out.answer += text.slice(0, keep);
      held = text.slice(keep);
      return;
    }
  }

  return {
    /** Adds a content piece; returns the reasoning and answer so far. */
    push(piece: string): ContentParts {
      feed(piece);
      return out;
    },
    /** The stream ended: text held back for a possible tag is what it looked like. */
    end(): ContentParts {
      if (held) {
        if (mode === 'thinking') out.reasoning += held;
        else out.answer += held;
        held = '';
      }
      return out;
    },
    get parts(): ContentParts {
      return out;
    },
    /** How often the answer so far turned out to be reasoning (it was taken back). */
    get rewrites(): number {
      return rewrites;
    },
    /** Whether the content so far is (still) reasoning. */
    get thinking(): boolean {
      return mode === 'thinking';
    },
  };
}

/** A whole (non-streamed) reply without its `<think>` block: titles, the assessor's verdict. */
export function withoutThinking(text: string): string {
  const splitter = createThinkSplitter();
  splitter.push(text);
  return splitter.end().answer;
}
