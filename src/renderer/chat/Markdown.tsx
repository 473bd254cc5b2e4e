// Model output is untrusted: Markdown without raw HTML, links only if http(s), and
// those open outside the app (system browser / new tab), never in this window.
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import type { PluggableList } from 'unified';
import remarkGfm from 'remark-gfm';
import { memo, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import remend from 'remend';
import { splitBlocksIncremental, type Blocks, type Chunk } from './markdownBlocks';
import { CodeChunk, groupCode } from './CodeChunk';
import { loadLanguages, missingLanguages } from './highlightLanguages';
import { rehypeHighlightCode } from './rehypeHighlightCode';
import { mayContainMath, normalizeMathDelimiters } from './mathDelimiters';
import { takeParseBudget, whenParseBudget } from './parseBudget';
import { mayUseGfm } from './gfmSyntax';
import { hasBidiControls, revealBidiControls } from '../../shared/bidi';

type MathPlugins = typeof import('./mathPlugins');
let mathPlugins: MathPlugins | null = null;
let mathLoading: Promise<MathPlugins> | null = null;
function loadMath(): Promise<MathPlugins> {
  mathLoading ??= import('./mathPlugins').then((m) => (mathPlugins = m));
  return mathLoading;
}

export function isWebUrl(href: string | undefined): boolean {
  if (!href) return false;
  try {
    const { protocol } = new URL(href);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function CodeBlock({ children, language }: { children?: ReactNode; language: string | undefined }) {
  const ref = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  return (
    <div className="code-block">
      <div className="code-toolbar">
        <span className="code-language">{language ?? ''}</span>
        <button
          type="button"
          className="ghost small"
          aria-label={copied ? 'Copied' : 'Copy code'}
          onClick={() => {
            void navigator.clipboard.writeText(ref.current?.innerText ?? '').then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            });
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre ref={ref}>{children}</pre>
    </div>
  );
}

const components: Components = {
  a: ({ href, children }) =>
    isWebUrl(href) ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span className="inert-link">{children}</span>
    ),
  // Remote images would leak the user's address to whoever the model names.
  img: ({ alt, src }) => <span className="inert-image">[image: {alt || String(src ?? '')}]</span>,
  pre: ({ children, node }) => {
    const code = node?.children[0];
    const classes = code && 'properties' in code ? code.properties.className : undefined;
    const language = Array.isArray(classes)
      ? classes
          .map(String)
          .find((c) => c.startsWith('language-'))
          ?.slice('language-'.length)
      : undefined;
    return <CodeBlock language={language}>{children}</CodeBlock>;
  },
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

/** Bidi controls in a reply (code included: "trojan source") show as markers, as in titles. */
const revealBidi = (text: string) => (hasBidiControls(text) ? revealBidiControls(text) : text);
/** A chunk of a big code block shown highlighted: one toolbar for the block, none per chunk. */
const chunkComponents: Components = {
  ...components,
  pre: ({ children }) => <pre className="md-code-chunk">{children}</pre>,
};

const withGfm = [remarkGfm];
const plain: PluggableList = [];

/** Only fenced code names a language to highlight: other blocks skip the highlighter's walk of their tree. */
const hasFence = (text: string) => text.includes('```') || text.includes('~~~');

/** One top-level block: unchanged blocks of a growing reply are not parsed again. */
const Block = memo(function Block({
  text,
  grammars,
  math,
  bare,
}: {
  text: string;
  grammars: number;
  math: MathPlugins | null;
  bare?: boolean;
}) {
  const highlight: PluggableList = hasFence(text) ? [[rehypeHighlightCode, grammars]] : [];
  const gfm = mayUseGfm(text) ? withGfm : plain;
  return (
    <ReactMarkdown
      remarkPlugins={math ? [...gfm, math.remarkMath] : gfm}
      rehypePlugins={math ? [math.rehypeMath as never, ...highlight] : highlight}
      skipHtml
      urlTransform={defaultUrlTransform}
      components={bare ? chunkComponents : components}
    >
      {revealBidi(math ? normalizeMathDelimiters(text) : text)}
    </ReactMarkdown>
  );
});

/** A plain block's likely height (about 90 characters a line), for `content-visibility`. */
function estimatedHeight(text: string): string {
  let lines = 0;
  for (const line of text.split('\n')) lines += Math.max(1, Math.ceil(line.length / 90));
  return `auto ${(lines * 1.6).toFixed(1)}em`;
}

/** Past this many blocks, only blocks near the screen are rendered as Markdown. */
export const LAZY_BLOCKS = 120;
/**
 * …except the last few, which render as Markdown straight away: a streaming reply grows
 * there, under a view that follows it, and waiting for the IntersectionObserver to call
 * them near drew each new block twice (as text, then as Markdown).
 */
const EAGER_TAIL = 16;
/** How far outside the screen a block starts rendering, so scrolling rarely shows it plain. */
const NEAR = '1200px 0px';

type Watch = (element: Element, onNear: () => void) => () => void;

/** One IntersectionObserver for all the blocks of a message. */
function useNearScreen(): Watch {
  const [watch] = useState<Watch>(() => {
    const callbacks = new Map<Element, () => void>();
    let observer: IntersectionObserver | null = null;
    return (element: Element, onNear: () => void) => {
      observer ??= new IntersectionObserver(
        (entries) => {
          for (const entry of entries) if (entry.isIntersecting) callbacks.get(entry.target)?.();
        },
        { rootMargin: NEAR },
      );
      callbacks.set(element, onNear);
      observer.observe(element);
      return () => {
        callbacks.delete(element);
        observer?.unobserve(element);
      };
    };
  });
  return watch;
}

/**
 * A block of a very long message: plain text (cheap, same words, about the same height)
 * until it comes near the screen, then Markdown for good. A 1 MB reply then costs the
 * parsing of what is on screen, not of all of it. Any block waits for the task's parse
 * budget (parseBudget.ts); the `last` one, where a reply grows, never waits.
 */
const LazyBlock = memo(function LazyBlock(props: {
  text: string;
  grammars: number;
  math: MathPlugins | null;
  watch: Watch;
  eager: boolean;
  last: boolean;
  /** A chunk of a big table or code block: wrapped, so its styles join it to its neighbours. */
  className?: string;
  bare?: boolean;
}) {
  const { watch, eager, last, className, ...block } = props;
  const ref = useRef<HTMLParagraphElement>(null);
  const [seen, setNear] = useState(eager);
  const near = seen || eager;
  // Once parsed, a block stays Markdown; the last one is counted each time it is parsed again.
  const [parsed, setParsed] = useState(false);
  let markdown = parsed;
  if (near && (last || !parsed)) {
    markdown = takeParseBudget(block.text.length, last) || parsed;
    if (markdown && !parsed) setParsed(true);
  }
  const waiting = near && !markdown;
  const [attempt, retry] = useState(0);
  useEffect(() => {
    if (waiting) return whenParseBudget(() => retry((n) => n + 1));
  }, [waiting, attempt]);
  useEffect(() => {
    if (!near && ref.current) return watch(ref.current, () => setNear(true));
  }, [near, watch]);
  if (markdown)
    return className ? (
      <div className={className}>
        <Block {...block} />
      </div>
    ) : (
      <Block {...block} />
    );
  return (
    <p ref={ref} className="md-pending" data-pending="" style={{ containIntrinsicSize: estimatedHeight(block.text) }}>
      {revealBidi(block.text)}
    </p>
  );
});

const NONE: ReadonlySet<number> = new Set();

/** Chunks of one table or paragraph are styled to read as one (Markdown.css). */
function chunkClass(chunk: Chunk | undefined, index: number, next: Chunk | undefined): string | undefined {
  if (chunk?.kind === 'table') return chunk.group === index ? 'md-table-chunk' : 'md-table-chunk continued';
  if (chunk?.kind !== 'paragraph') return undefined;
  return ['md-paragraph-chunk', chunk.group !== index && 'continued', next?.group === chunk.group && 'joined']
    .filter(Boolean)
    .join(' ');
}

/**
 * Markdown split into blocks. While `streaming`, the open last block is repaired with
 * remend (an unclosed `**` or code fence renders as it will, not as raw marks).
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  // Derived state: the previous split is what makes the next one incremental.
  const [split, setSplit] = useState<Blocks | null>(null);
  let current = split;
  if (current?.text !== text) {
    current = splitBlocksIncremental(split, text);
    setSplit(current);
  }
  const { blocks, chunks } = current;
  // Big code blocks are plain monospace until the user asks for highlighting (by group).
  const [highlighted, setHighlighted] = useState(NONE);
  const highlight = useCallback((group: number) => setHighlighted((set) => new Set(set).add(group)), []);
  const latest = useRef(current);
  useEffect(() => {
    latest.current = current;
  });
  const copy = useCallback((group: number) => groupCode(latest.current, group), []);
  // Code in a language whose grammar is not loaded yet renders plain, then highlighted.
  const [grammars, setGrammars] = useState(0);
  const missing = missingLanguages(text).join(',');
  useEffect(() => {
    if (missing) void loadLanguages(missing.split(',')).then(() => setGrammars((n) => n + 1));
  }, [missing]);
  // Math renders once KaTeX has loaded; until then the TeX shows as written.
  const wantsMath = mayContainMath(text);
  const [math, setMath] = useState<MathPlugins | null>(mathPlugins);
  useEffect(() => {
    if (wantsMath && !math) void loadMath().then(setMath, () => {});
  }, [wantsMath, math]);
  const watch = useNearScreen();
  const lazy = blocks.length > LAZY_BLOCKS;
  return (
    <div className="markdown">
      {blocks.map((block, index) => {
        const last = index === blocks.length - 1;
        const chunk = chunks[index];
        if (chunk?.kind === 'code' && !highlighted.has(chunk.group)) {
          return (
            <CodeChunk
              key={index}
              text={block}
              chunk={chunk}
              first={chunk.group === index}
              onCopy={copy}
              onHighlight={highlight}
            />
          );
        }
        // A chunk after the first parses with its block's head (fence line, table header) in front.
        const source = chunk && chunk.group !== index ? chunk.head + block : block;
        const props = { grammars, math: wantsMath ? math : null, text: streaming && last ? remend(source) : source };
        const className = chunkClass(chunk, index, chunks[index + 1]);
        // Blocks only ever grow at the end, so the index is a stable key. The last blocks,
        // where a streaming reply grows, always render, and once rendered a block stays so.
        return (
          <LazyBlock
            key={index}
            {...props}
            className={className}
            bare={chunk?.kind === 'code'}
            watch={watch}
            // A chunk of a big block waits to be near the screen even in a short message:
            // all of a 1 MB block's chunks pass through the tail while it streams, and
            // parsing each there would parse the whole megabyte.
            eager={chunk ? last : !lazy || index >= blocks.length - EAGER_TAIL}
            last={last}
          />
        );
      })}
    </div>
  );
});
