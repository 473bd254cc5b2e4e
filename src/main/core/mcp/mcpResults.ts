// An MCP tool result → what the model reads. `structuredContent` wins when present;
// images and resources are named in the text (the model is told they exist), and kept
// apart for the tool card.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { ToolAttachment, ToolImage } from '../../../shared/mcp';

export interface ConvertedResult {
  text: string;
  isError: boolean;
  images: ToolImage[];
  attachments: ToolAttachment[];
}

type Block = CallToolResult['content'][number];

function kib(base64: string): string {
  return `${(Math.ceil((base64.length * 3) / 4) / 1024).toFixed(1)} KB`;
}

function describe(block: Block, images: ToolImage[], attachments: ToolAttachment[]): string | null {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      images.push({ mimeType: block.mimeType, data: block.data });
      return `[Image ${images.length}: ${block.mimeType}, ${kib(block.data)}, shown to the user]`;
    case 'audio':
      return `[Audio: ${block.mimeType}, ${kib(block.data)}, not shown]`;
    case 'resource_link':
      attachments.push({ uri: block.uri, name: block.name, mimeType: block.mimeType ?? null, text: null });
      return `[Resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}]`;
    case 'resource': {
      const { resource } = block;
      const text = 'text' in resource && typeof resource.text === 'string' ? resource.text : null;
      attachments.push({ uri: resource.uri, name: resource.uri, mimeType: resource.mimeType ?? null, text });
      if (text !== null) return `[Resource ${resource.uri}]\n${text}`;
      return `[Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}, binary, shown to the user]`;
    }
    default:
      return null;
  }
}

export function convertResult(result: CallToolResult): ConvertedResult {
  const images: ToolImage[] = [];
  const attachments: ToolAttachment[] = [];
  const content = result.content ?? [];
  const parts = content.map((block) => describe(block, images, attachments));
  const structured = result.structuredContent;
  // The structured form replaces the text blocks (they repeat it); the rest is still named.
  const kept =
    structured === undefined
      ? parts
      : [JSON.stringify(structured), ...parts.filter((_, i) => content[i].type !== 'text')];
  let text = kept.filter((part): part is string => part !== null).join('\n');
  if (!text.trim())
    text = result.isError ? 'The tool reported an error without details.' : '(The tool returned no content.)';
  return { text, isError: result.isError === true, images, attachments };
}
