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

/** An embedded binary resource larger than this (base64 characters) is named but not kept. */
export const EMBEDDED_MAX = 8 * 1024 * 1024;

function bytesOf(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** How the card shows a binary resource, as the model is told (only what is true). */
function shownAs(mimeType: string | undefined): string {
  if (mimeType && /^image\/(png|jpeg|webp|gif)$/.test(mimeType)) return 'shown to the user as an image';
  if (mimeType?.startsWith('audio/')) return 'offered to the user as an audio player';
  return 'offered to the user as a download';
}

function describe(
  block: Block,
  images: ToolImage[],
  attachments: ToolAttachment[],
  server: string | undefined,
): string | null {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      images.push({ mimeType: block.mimeType, data: block.data });
      return `[Image ${images.length}: ${block.mimeType}, ${kib(block.data)}, shown to the user]`;
    case 'audio': {
      // Kept with the card like an embedded binary resource: the card plays it.
      const n = attachments.filter((a) => a.uri.startsWith('Audio ')).length + 1;
      const kept = block.data.length <= EMBEDDED_MAX;
      const name = `Audio ${n}`;
      attachments.push({
        uri: name,
        name,
        mimeType: block.mimeType,
        text: null,
        kind: 'embedded',
        data: kept ? block.data : null,
        size: bytesOf(block.data),
      });
      return `[${name}: ${block.mimeType}, ${kib(block.data)}, ${kept ? 'offered to the user as an audio player' : 'too large to keep; the user sees only its name'}]`;
    }
    case 'resource_link':
      attachments.push({
        uri: block.uri,
        name: block.name,
        mimeType: block.mimeType ?? null,
        text: null,
        kind: 'link',
        ...(server ? { server } : {}),
      });
      return `[Resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}]`;
    case 'resource': {
      const { resource } = block;
      const text = 'text' in resource && typeof resource.text === 'string' ? resource.text : null;
      const base = {
        uri: resource.uri,
        name: resource.uri,
        mimeType: resource.mimeType ?? null,
        kind: 'embedded' as const,
      };
      if (text !== null) {
        attachments.push({ ...base, text });
        return `[Resource ${resource.uri}]\n${text}`;
      }
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      const kept = blob.length <= EMBEDDED_MAX;
      const size = bytesOf(blob);
      attachments.push({ ...base, text: null, data: kept ? blob : null, size });
      const what = `${resource.mimeType ? `${resource.mimeType}, ` : ''}${kib(blob)}, binary`;
      return kept
        ? `[Resource ${resource.uri} (${what}), ${shownAs(resource.mimeType)}]`
        : `[Resource ${resource.uri} (${what}), too large to keep; the user sees only its name]`;
    }
    default:
      return null;
  }
}

/** `server`: whose result it is, so a resource link can be read from it later. */
export function convertResult(result: CallToolResult, server?: string): ConvertedResult {
  const images: ToolImage[] = [];
  const attachments: ToolAttachment[] = [];
  const content = result.content ?? [];
  const parts = content.map((block) => describe(block, images, attachments, server));
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
