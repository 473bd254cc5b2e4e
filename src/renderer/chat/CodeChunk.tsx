// A chunk of a code block too big to highlight at once (markdownBlocks.ts cuts it): plain
// monospace text, no parsing, laid out only near the screen. The first chunk carries the
// block's toolbar: its language, "Highlight" (the chunks are then highlighted one by one
// as they come near the screen) and "Copy" (the whole block, from the text, not the DOM).
import { memo, useState } from 'react';
import type { Blocks, Chunk } from './markdownBlocks';

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

function fenceOf(chunk: Chunk): { fence: string; language: string } {
  const match = FENCE.exec(chunk.head.trimEnd());
  return { fence: match?.[1] ?? '```', language: match?.[2].trim().split(/\s/)[0] ?? '' };
}

/** The code of a chunk: without the opening line (first chunk) or a closing fence (last). */
function codeOf(text: string, chunk: Chunk, first: boolean): string {
  const { fence } = fenceOf(chunk);
  const body = first ? text.slice(text.indexOf('\n') + 1) : text;
  const closing = new RegExp(`(^|\\n) {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*\\n*$`);
  return body.replace(closing, '$1');
}

/** The whole code of the big block whose chunks start at `group`. */
export function groupCode(blocks: Blocks, group: number): string {
  let code = '';
  for (let i = group; i < blocks.blocks.length && blocks.chunks[i]?.group === group; i++) {
    code += codeOf(blocks.blocks[i], blocks.chunks[i]!, i === group);
  }
  return code.replace(/\n$/, '');
}

/** A plain block's likely height (about 90 characters a line), for `content-visibility`. */
function estimatedHeight(text: string): string {
  let lines = 0;
  for (const line of text.split('\n')) lines += Math.max(1, Math.ceil(line.length / 90));
  return `auto ${(lines * 1.5).toFixed(1)}em`;
}

export const CodeChunk = memo(function CodeChunk(props: {
  text: string;
  chunk: Chunk;
  first: boolean;
  onCopy: (group: number) => string;
  onHighlight: (group: number) => void;
}) {
  const { text, chunk, first, onCopy, onHighlight } = props;
  const [copied, setCopied] = useState(false);
  const code = codeOf(text, chunk, first);
  const pre = (
    <pre className="md-code-chunk plain" style={{ containIntrinsicSize: estimatedHeight(code) }}>
      <code>{code}</code>
    </pre>
  );
  if (!first) return pre;
  return (
    <div className="md-code-chunks">
      <div className="code-toolbar">
        <span className="code-language">{fenceOf(chunk).language}</span>
        <button
          type="button"
          className="ghost small"
          aria-label="Highlight this code block"
          onClick={() => onHighlight(chunk.group)}
        >
          Highlight
        </button>
        <button
          type="button"
          className="ghost small"
          aria-label={copied ? 'Copied' : 'Copy code'}
          onClick={() => {
            void navigator.clipboard.writeText(onCopy(chunk.group)).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            });
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {pre}
    </div>
  );
});
