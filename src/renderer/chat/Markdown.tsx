// Model output is untrusted: Markdown without raw HTML, links only if http(s), and
// those open outside the app (system browser / new tab), never in this window.
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { memo, useRef, useState, type ReactNode } from 'react';

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
      ? classes.map(String).find((c) => c.startsWith('language-'))?.slice('language-'.length)
      : undefined;
    return <CodeBlock language={language}>{children}</CodeBlock>;
  },
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

const rehypePlugins = [[rehypeHighlight, { detect: false, ignoreMissing: true }]] as const;

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={rehypePlugins as never}
        skipHtml
        urlTransform={defaultUrlTransform}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
