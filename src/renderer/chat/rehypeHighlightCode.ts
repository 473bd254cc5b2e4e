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
  return classes
    .map(String)
    .find((c) => c.startsWith('language-'))
    ?.slice('language-'.length);
}

// One highlighter for every block: react-markdown runs this attacher on each render of
// each block, and creating a lowlight instance registers (compiles) every loaded grammar.
let shared: { count: number; lowlight: ReturnType<typeof createLowlight> } | null = null;
function highlighter() {
  const count = Object.keys(loadedLanguages).length;
  if (shared?.count !== count) shared = { count, lowlight: createLowlight(loadedLanguages) };
  return shared.lowlight;
}

/** A rehype plugin; `version` only changes the plugin's identity when grammars arrive. */
export function rehypeHighlightCode(this: unknown, _version?: number) {
  const lowlight = highlighter();
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
