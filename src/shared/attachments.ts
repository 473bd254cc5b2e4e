// Files the user attaches to a message: images go to models that see images, text and
// code files are inlined as fenced blocks, PDFs as their extracted text. The page sends
// the bytes (never a path); main stores them once per content next to the database.
import { z } from 'zod';
import { modelSeesImages } from './mcp';
import type { ModelOptions } from './providers';

const MB = 1024 * 1024;
/** Largest single file. */
export const ATTACHMENT_FILE_MAX = 10 * MB;
/** Largest total of the files of one message. */
export const ATTACHMENT_MESSAGE_MAX = 20 * MB;
/** Most files on one message. */
export const ATTACHMENTS_PER_MESSAGE = 10;
/** What the composer says before anything is sent. */
export const ATTACHMENT_LIMITS_TEXT = `Up to ${ATTACHMENTS_PER_MESSAGE} files, ${ATTACHMENT_FILE_MAX / MB} MB each and ${ATTACHMENT_MESSAGE_MAX / MB} MB in all: images (PNG, JPEG, WebP, GIF), text and code files, PDFs.`;

/** The image types models accept as `image_url` parts. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export const AttachmentKind = z.enum(['image', 'text', 'pdf']);
export type AttachmentKind = z.infer<typeof AttachmentKind>;

export const AttachmentId = z.string().regex(/^[a-z0-9-]{8,64}$/, { error: 'not an attachment id' });

export const AttachmentInfo = z.object({
  id: AttachmentId,
  name: z.string(),
  mimeType: z.string(),
  kind: AttachmentKind,
  /** Bytes. */
  size: z.number().int().min(0),
  /** Something the user should know about the stored file (a PDF attached without its text). */
  note: z.string().optional(),
});
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;

const BASE64_MAX = Math.ceil(ATTACHMENT_FILE_MAX / 3) * 4;

/**
 * `=` only as the last one or two characters. Main refuses any other non-base64 character
 * where it decodes the upload (a lenient decoder skips them, so the length falls short):
 * a regex over a whole large upload held the host's main thread, and no other call was
 * answered meanwhile (docs/performance.md, "Figures behind the code").
 */
function isBase64(data: string): boolean {
  const padding = data.indexOf('=');
  return padding === -1 || (padding >= data.length - 2 && data.endsWith('='));
}

export const AttachmentUpload = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: 'the file needs a name' })
    .max(255, { error: 'file names are at most 255 characters' })
    .regex(/^[^/\\\0]+$/, { error: 'a file name, not a path' }),
  /** What the browser said ('' when it did not know); main checks the bytes itself. */
  mimeType: z.string().max(200),
  data: z
    .string()
    .max(BASE64_MAX, { error: `files must be at most ${formatBytes(ATTACHMENT_FILE_MAX)}` })
    .refine(isBase64, { error: 'data must be base64' }),
});
export type AttachmentUpload = z.infer<typeof AttachmentUpload>;

/** What the page may show of a stored attachment: an image's data URL, or why not. */
export const AttachmentPreview = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), dataUrl: z.string() }),
  z.object({ status: z.literal('missing'), message: z.string() }),
  z.object({ status: z.literal('none') }),
]);
export type AttachmentPreview = z.infer<typeof AttachmentPreview>;

/** A preview is the thumbnail (at most 512 px); `full` asks for the original, for the viewer. */
export const AttachmentPreviewRequest = z.strictObject({ id: AttachmentId, full: z.boolean().optional() });

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0).replace(/\.0$/, '')} MB`;
}

/**
 * A size over a limit and the limit, in words that show the difference: a file one byte
 * over 10 MB is not "10 MB; at most 10 MB" but "10,485,761 bytes; at most 10 MB (10,485,760 bytes)".
 */
export function sizeOverLimit(bytes: number, limit: number): { size: string; limit: string } {
  if (formatBytes(bytes) !== formatBytes(limit)) return { size: formatBytes(bytes), limit: formatBytes(limit) };
  const exact = (n: number) => `${n.toLocaleString('en-US')} bytes`;
  return { size: exact(bytes), limit: `${formatBytes(limit)} (${exact(limit)})` };
}

/** Whether the model gets images: the user's setting for it, else a guess from its name. */
export function seesImages(options: ModelOptions | undefined, model: string): boolean {
  return options?.vision ?? modelSeesImages(model);
}

/** What is wrong with adding `next` to the files already on a message, or null. */
export function limitProblem(
  current: Array<Pick<AttachmentInfo, 'size'>>,
  next: { name: string; size: number },
): string | null {
  if (next.size > ATTACHMENT_FILE_MAX) {
    const over = sizeOverLimit(next.size, ATTACHMENT_FILE_MAX);
    return `${next.name} is ${over.size}; files can be at most ${over.limit}.`;
  }
  if (current.length >= ATTACHMENTS_PER_MESSAGE) return `A message can carry at most ${ATTACHMENTS_PER_MESSAGE} files.`;
  const total = current.reduce((n, a) => n + a.size, 0) + next.size;
  if (total > ATTACHMENT_MESSAGE_MAX) {
    const over = sizeOverLimit(total, ATTACHMENT_MESSAGE_MAX);
    return `${next.name} would bring this message to ${over.size}; a message's files can be at most ${over.limit} in all.`;
  }
  return null;
}
