// A user message with attachments → the content of its chat completion message. Images
// become `image_url` parts (data URLs) for models that see images, and a note for others;
// text files and PDFs are inlined as fenced blocks headed by the file name. Without images
// the content stays one string, which every OpenAI-compatible server accepts.
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { AttachmentInfo } from '../../../shared/attachments';

/** What a stored attachment holds for a request. */
export type LoadedAttachment =
  | { kind: 'text'; text: string }
  | { kind: 'image'; dataUrl: string }
  | { kind: 'missing'; message: string };

export interface PartsInput {
  text: string;
  attachments: AttachmentInfo[];
  load: (attachment: AttachmentInfo) => LoadedAttachment;
  /** The model the request goes to, and whether it sees images. */
  model: string;
  vision: boolean;
}

export function userContent(input: PartsInput): string | ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = [];
  const addText = (text: string) => {
    const last = parts.at(-1);
    if (last?.type === 'text') last.text += `\n\n${text}`;
    else parts.push({ type: 'text', text });
  };
  if (input.text.trim()) addText(input.text);
  for (const attachment of input.attachments) {
    const loaded = input.load(attachment);
    if (loaded.kind === 'missing') addText(`[${loaded.message}]`);
    else if (loaded.kind === 'text') addText(fenced(attachment, loaded.text));
    else if (input.vision) parts.push({ type: 'image_url', image_url: { url: loaded.dataUrl } });
    else addText(`[Image ${attachment.name} not shown: ${input.model} is not set up to see images.]`);
  }
  if (parts.every((part) => part.type === 'text'))
    return parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');
  return parts;
}

/** `notes.md` → "notes.md:" and a fence longer than any backtick run inside the text. */
export function fenced(attachment: Pick<AttachmentInfo, 'name' | 'kind'>, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const extension = attachment.name.includes('.') ? attachment.name.split('.').at(-1)!.toLowerCase() : '';
  const language = attachment.kind === 'pdf' ? 'text' : /^[a-z0-9+#-]{1,15}$/.test(extension) ? extension : 'text';
  const heading = attachment.kind === 'pdf' ? `${attachment.name} (text of the PDF):` : `${attachment.name}:`;
  return `${heading}\n${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`;
}
