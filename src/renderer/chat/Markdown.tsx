// Model output is untrusted: Markdown without raw HTML, links only if http(s), and
// those open outside the app (system browser / new tab), never in this window.
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { memo } from 'react';

export function isWebUrl(href: string | undefined): boolean {
  if (!href) return false;
  try {
    const { protocol } = new URL(href);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
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
  img: ({ alt, src }) => <span className="inert-image">[image: {alt || src}]</span>,
};

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={defaultUrlTransform} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
