// What a file is, decided from its bytes (the browser's type and the name are hints only):
// a supported image, a PDF, or text (UTF-8 without NUL bytes). Anything else is refused
// with a sentence saying why.
import { isUtf8 } from 'node:buffer';
import { IMAGE_TYPES, type AttachmentKind } from '../../../shared/attachments';

export type Sniffed = { ok: true; kind: AttachmentKind; mimeType: string } | { ok: false; message: string };

const MAGIC: Array<[(b: Buffer) => boolean, (typeof IMAGE_TYPES)[number]]> = [
  [(b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'image/png'],
  [(b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, 'image/jpeg'],
  [
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
    'image/webp',
  ],
  [(b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')), 'image/gif'],
];

const TEXT_TYPES: Record<string, string> = {
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};

export function sniffAttachment(name: string, bytes: Buffer): Sniffed {
  const image = MAGIC.find(([test]) => test(bytes));
  if (image) return { ok: true, kind: 'image', mimeType: image[1] };
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-')
    return { ok: true, kind: 'pdf', mimeType: 'application/pdf' };
  if (isText(bytes)) {
    const extension = name.includes('.') ? name.split('.').at(-1)!.toLowerCase() : '';
    return { ok: true, kind: 'text', mimeType: TEXT_TYPES[extension] ?? 'text/plain' };
  }
  return {
    ok: false,
    message: `${name} is not an image (PNG, JPEG, WebP, GIF), a PDF or a text file, so it cannot be sent to a model.`,
  };
}

/** Validated in place: decoding a large file to a string to see whether it throws held the main thread. */
function isText(bytes: Buffer): boolean {
  return !bytes.includes(0) && isUtf8(bytes);
}
