// Parses exported Markdown with a real GFM parser (remark-parse + remark-gfm) and pulls
// out what the tests look at: headings, list items with their checkbox state, node kinds.
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import type { ListItem, Nodes, Root } from 'mdast';

export function parseGfm(markdown: string): Root {
  return unified().use(remarkParse).use(remarkGfm).parse(markdown);
}

export function walk(node: Nodes, visit: (node: Nodes, depth: number) => void, depth = 0): void {
  visit(node, depth);
  if ('children' in node) for (const child of node.children) walk(child as Nodes, visit, depth + 1);
}

export function textOf(node: Nodes): string {
  if (node.type === 'break') return '\n';
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(textOf).join('');
  return '';
}

export function nodeTypes(root: Root): Set<string> {
  const types = new Set<string>();
  walk(root, (node) => types.add(node.type));
  return types;
}

export function headings(root: Root): Array<{ depth: number; text: string }> {
  const found: Array<{ depth: number; text: string }> = [];
  walk(root, (node) => {
    if (node.type === 'heading') found.push({ depth: node.depth, text: textOf(node) });
  });
  return found;
}

export interface Item {
  checked: boolean | null;
  /** The item's first line as plain text, without the `_(…)_` notes. */
  title: string;
  /** Whether the title is struck through. */
  struck: boolean;
  notes: string[];
  /** Lines after the first (the description). */
  description: string[];
}

export function listItems(root: Root): Item[] {
  const items: Item[] = [];
  walk(root, (node) => {
    if (node.type !== 'listItem') return;
    items.push(describeItem(node));
  });
  return items;
}

function describeItem(item: ListItem): Item {
  const paragraph = item.children[0];
  const inline = paragraph && paragraph.type === 'paragraph' ? paragraph.children : [];
  const breakAt = inline.findIndex((n) => n.type === 'break');
  const head = breakAt === -1 ? inline : inline.slice(0, breakAt);
  const rest = breakAt === -1 ? [] : inline.slice(breakAt + 1);
  const notes = head.filter((n) => n.type === 'emphasis').map((n) => textOf(n));
  const titleNodes = head.filter((n) => n.type !== 'emphasis');
  return {
    checked: item.checked ?? null,
    title: titleNodes
      .map((n) => textOf(n))
      .join('')
      .trim(),
    struck: titleNodes.some((n) => n.type === 'delete'),
    notes,
    description: rest
      .map((n) => textOf(n))
      .join('')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  };
}
