// Highlights fenced code with the grammars loaded so far (see highlightLanguages.ts).
// rehype-highlight would import lowlight's forty default grammars into the first chunk.
import type { Element, Root } from 'hast';
import { toText } from 'hast-util-to-text';
import { createLowlight } from 'lowlight';
import { visit } from 'unist-util-visit';
import { loadedLanguages } from './highlightLanguages';

function fenceLanguage(code: Element): string | undefined {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return undefined;
  return classes.map(String).find((c) => c.startsWith('language-'))?.slice('language-'.length);
}

/** A rehype plugin; `version` only changes the plugin's identity when grammars arrive. */
export function rehypeHighlightCode(this: unknown, _version?: number) {
  const lowlight = createLowlight(loadedLanguages);
  return (tree: Root) => {
    visit(tree, 'element', (node, _index, parent) => {
      if (node.tagName !== 'code' || parent?.type !== 'element' || parent.tagName !== 'pre') return;
      const language = fenceLanguage(node);
      if (!language || !lowlight.registered(language)) return;
      const result = lowlight.highlight(language, toText(parent, { whitespace: 'pre' }));
      node.children = result.children as Element['children'];
      node.properties.className = [...(node.properties.className as string[]), 'hljs'];
    });
  };
}
