// Attachments: the files the page uploads (bytes, never paths), their rows in SQLite,
// the links from user messages, and what a request sends for them. Files are stored
// once per content (attachmentFiles.ts); a file gone from disk reads as "missing". What is
// derived from a file (a PDF's text, an image's thumbnail) is made off the main thread when
// it comes in and kept beside it.
import { randomUUID } from 'node:crypto';
import {
  sizeOverLimit,
  ATTACHMENT_FILE_MAX,
  ATTACHMENT_MESSAGE_MAX,
  ATTACHMENTS_PER_MESSAGE,
  type AttachmentInfo,
  type AttachmentPreview,
} from '../../../shared/attachments';
import type { Message } from '../../../shared/domain';
import type { Db } from '../db/openDatabase';
import { AppError } from '../ipc/dispatcher';
import { createAttachmentFiles, decodeBase64 } from './attachmentFiles';
import { sniffAttachment } from './attachmentKinds';
import { userContent, type LoadedAttachment } from './attachmentParts';
import { extractPdfText, type PdfBudget } from './pdfText';
import { makeThumbnail } from './imageThumbnail';
import { faultPoint } from '../faults/faultPoints';
import type { HandlersFor } from '../../../shared/contract';
import type { attachmentCalls } from '../../../shared/attachmentsContract';

interface Row {
  id: string;
  sha256: string;
  name: string;
  mime_type: string;
  kind: AttachmentInfo['kind'];
  size: number;
  /** A PDF's text as older versions stored it; now it is a file beside the PDF's. */
  text: string | null;
  /** Why a PDF has no text although it may hold some. */
  text_note: string | null;
  created_at: number;
}

/** Uploaded but never sent: kept this long (a composer may hold it), then dropped. */
const UNLINKED_TTL_MS = 24 * 60 * 60 * 1000;
/** Loaded contents kept in memory, so each round of a tool loop does not re-read the files. */
const CACHE_CHARS = 64 * 1024 * 1024;

const toInfo = (row: Row): AttachmentInfo => ({
  id: row.id,
  name: row.name,
  mimeType: row.mime_type,
  kind: row.kind,
  size: row.size,
  ...(row.text_note ? { note: row.text_note } : {}),
});

export function createAttachments(deps: { db: Db; dataDir: string; now: () => number; pdfBudget?: PdfBudget }) {
  const { db, now } = deps;
  const files = createAttachmentFiles(deps.dataDir);
  const byId = db.prepare<[string], Row>('SELECT * FROM attachments WHERE id = ?');
  const byContent = db.prepare<[string, string, string], Row>(
    'SELECT * FROM attachments WHERE sha256 = ? AND name = ? AND mime_type = ?',
  );
  const insert = db.prepare(
    `INSERT INTO attachments (id, sha256, name, mime_type, kind, size, text, text_note, created_at)
     VALUES (@id, @sha256, @name, @mime_type, @kind, @size, @text, @text_note, @created_at)`,
  );
  const linkRow = db.prepare('INSERT INTO message_attachments (message_id, position, attachment_id) VALUES (?, ?, ?)');
  const ofMessage = db.prepare<[number], Row>(
    `SELECT a.* FROM message_attachments l JOIN attachments a ON a.id = l.attachment_id
     WHERE l.message_id = ? ORDER BY l.position`,
  );
  const ofConversation = db.prepare<[string], Row & { message_id: number }>(
    `SELECT l.message_id, a.* FROM message_attachments l JOIN attachments a ON a.id = l.attachment_id
     JOIN messages m ON m.id = l.message_id WHERE m.conversation_id = ? ORDER BY l.message_id, l.position`,
  );
  const ofMessages = db.prepare<[string], Row & { message_id: number }>(
    `SELECT l.message_id, a.* FROM message_attachments l JOIN attachments a ON a.id = l.attachment_id
     WHERE l.message_id IN (SELECT value FROM json_each(?)) ORDER BY l.message_id, l.position`,
  );
  const dropUnlinked = db.prepare(
    'DELETE FROM attachments WHERE created_at < ? AND id NOT IN (SELECT attachment_id FROM message_attachments)',
  );
  const allHashes = db.prepare<[], { sha256: string }>('SELECT DISTINCT sha256 FROM attachments');
  function byMessage(rows: Array<Row & { message_id: number }>): Map<number, AttachmentInfo[]> {
    const grouped = new Map<number, AttachmentInfo[]>();
    for (const row of rows) {
      const list = grouped.get(row.message_id) ?? [];
      list.push(toInfo(row));
      grouped.set(row.message_id, list);
    }
    return grouped;
  }
  const cache = new Map<string, LoadedAttachment>();
  let cachedChars = 0;

  /** Stores the bytes (once per content) and returns the attachment; refused with a reason. */
  async function store(name: string, bytes: Buffer, createdAt = now()): Promise<AttachmentInfo> {
    if (bytes.length > ATTACHMENT_FILE_MAX) {
      const over = sizeOverLimit(bytes.length, ATTACHMENT_FILE_MAX);
      throw new AppError('invalid_request', `${name} is ${over.size}; files can be at most ${over.limit}.`);
    }
    if (bytes.length === 0) throw new AppError('invalid_request', `${name} is empty.`);
    const sniffed = sniffAttachment(name, bytes);
    if (!sniffed.ok) throw new AppError('invalid_request', sniffed.message);
    const sha256 = await files.sha256Async(bytes);
    const known = byContent.get(sha256, name, sniffed.mimeType);
    if (known && files.exists(sha256)) return toInfo(known);
    let textNote: string | null = null;
    // The same content stored under another name already has what is derived from it.
    if (sniffed.kind === 'pdf' && !files.hasDerived(sha256, 'txt')) {
      const extracted = await extractPdfText(bytes, files.derivedPath(sha256, 'txt'), deps.pdfBudget);
      if ('error' in extracted)
        throw new AppError('invalid_request', `${name} could not be read as a PDF (${extracted.error}).`);
      if ('overBudget' in extracted)
        textNote = `${name} is attached without its text: ${extracted.overBudget}. Models will be told its text is missing.`;
    }
    if (sniffed.kind === 'image' && !files.hasDerived(sha256, 'thumb')) {
      const made = await makeThumbnail(bytes, sniffed.mimeType);
      if ('thumbnail' in made) await files.putDerived(sha256, 'thumb', made.thumbnail);
    }
    faultPoint('attachment:before-file');
    await files.put(bytes, sha256);
    faultPoint('attachment:file-written');
    if (known) return toInfo(known);
    const row: Row = {
      id: randomUUID(),
      sha256,
      name,
      mime_type: sniffed.mimeType,
      kind: sniffed.kind,
      size: bytes.length,
      text: null,
      text_note: textNote,
      created_at: createdAt,
    };
    // Two uploads of the same file at once: the second finds the first's row.
    const stored = toInfo(byContent.get(sha256, name, sniffed.mimeType) ?? (insert.run(row), row));
    faultPoint('attachment:row-stored');
    return stored;
  }

  function load(info: AttachmentInfo): LoadedAttachment {
    const hit = cache.get(info.id);
    if (hit) return hit;
    const row = byId.get(info.id);
    if (!row) return { kind: 'missing', message: `The attachment ${info.name} is missing from the database.` };
    let loaded: LoadedAttachment;
    if (row.kind === 'pdf') {
      // The text was extracted when the file came in; the PDF need not be read again.
      const text = row.text ?? (row.text_note ? null : files.readDerived(row.sha256, 'txt')?.toString('utf8'));
      loaded = text
        ? { kind: 'text', text }
        : {
            kind: 'missing',
            message:
              row.text_note ?? `${row.name} has no text that could be extracted (it may hold scanned pages only).`,
          };
    } else {
      const read = files.read(row.sha256, row.name);
      if (!read.ok) return { kind: 'missing', message: read.message };
      loaded =
        row.kind === 'image'
          ? { kind: 'image', dataUrl: `data:${row.mime_type};base64,${read.bytes.toString('base64')}` }
          : { kind: 'text', text: read.bytes.toString('utf8') };
    }
    const chars = loaded.kind === 'image' ? loaded.dataUrl.length : loaded.kind === 'text' ? loaded.text.length : 0;
    if (chars <= CACHE_CHARS) {
      for (const [id, old] of cache) {
        if (cachedChars + chars <= CACHE_CHARS) break;
        cache.delete(id);
        cachedChars -= old.kind === 'image' ? old.dataUrl.length : old.kind === 'text' ? old.text.length : 0;
      }
      cache.set(info.id, loaded);
      cachedChars += chars;
    }
    return loaded;
  }

  const links = {
    /** Links stored attachments to a new message, in order; refused (nothing linked) past the limits. */
    link(messageId: number, ids: string[]): void {
      if (!ids.length) return;
      if (ids.length > ATTACHMENTS_PER_MESSAGE) {
        throw new AppError('invalid_request', `A message can carry at most ${ATTACHMENTS_PER_MESSAGE} files.`);
      }
      const rows = ids.map((id) => {
        const row = byId.get(id);
        if (!row)
          throw new AppError('not_found', 'An attached file is no longer stored. Remove it and attach it again.');
        return row;
      });
      const total = rows.reduce((n, row) => n + row.size, 0);
      if (total > ATTACHMENT_MESSAGE_MAX) {
        const over = sizeOverLimit(total, ATTACHMENT_MESSAGE_MAX);
        throw new AppError(
          'invalid_request',
          `These files come to ${over.size}; a message's files can be at most ${over.limit} in all.`,
        );
      }
      db.transaction(() => rows.forEach((row, position) => linkRow.run(messageId, position, row.id)))();
    },
    of: (messageId: number): AttachmentInfo[] => ofMessage.all(messageId).map(toInfo),
    /** Every message's files in a conversation, in one query (a whole history is read at once). */
    ofConversation: (conversationId: string) => byMessage(ofConversation.all(conversationId)),
    /** The files of a page of messages, in one query. */
    ofMessages: (messageIds: number[]) => byMessage(ofMessages.all(JSON.stringify(messageIds))),
  };

  return {
    files,
    links,
    store,
    load,
    /** The content a user message sends: its text and attachments, for `model`. */
    content(message: Pick<Message, 'content' | 'attachments'>, model: string, vision: boolean) {
      return userContent({ text: message.content, attachments: message.attachments ?? [], load, model, vision });
    },
    /** A stored attachment's bytes, or why not (export). */
    bytes(id: string) {
      const row = byId.get(id);
      if (!row) return { ok: false as const, missing: true as const, message: 'The attachment is not stored.' };
      return files.read(row.sha256, row.name);
    },
    preview,
    /** Start-up: drops uploads never sent (after a day) and files no row names. */
    collect(): { rows: number; files: number } {
      const rows = dropUnlinked.run(now() - UNLINKED_TTL_MS).changes;
      return { rows, files: files.prune(new Set(allHashes.all().map((r) => r.sha256))) };
    },
    handlers: {
      'attachments:add': async ({ name, data }) => {
        const bytes = await decodeBase64(data);
        if (!bytes) throw new AppError('invalid_request', `The data of ${name} must be base64.`);
        return store(name, bytes);
      },
      'attachments:preview': ({ id, full }) => preview(id, full),
    } satisfies HandlersFor<typeof attachmentCalls>,
  };

  /**
   * An image's data URL for its thumbnail (or the original, `full`, for the viewer), or why
   * there is none. An image within the thumbnail's edge, or stored before thumbnails, is
   * its own thumbnail.
   */
  function preview(id: string, full = false): AttachmentPreview {
    const row = byId.get(id);
    if (!row) return { status: 'missing', message: 'This attachment is no longer stored.' };
    if (row.kind !== 'image')
      return files.exists(row.sha256) ? { status: 'none' } : { status: 'missing', message: `${row.name} is missing.` };
    const thumbnail = full ? null : files.readDerived(row.sha256, 'thumb');
    if (thumbnail && files.exists(row.sha256)) {
      return {
        status: 'ok',
        dataUrl: `data:${row.mime_type === 'image/jpeg' ? 'image/jpeg' : 'image/png'};base64,${thumbnail.toString('base64')}`,
      };
    }
    const loaded = load(toInfo(row));
    return loaded.kind === 'image'
      ? { status: 'ok', dataUrl: loaded.dataUrl }
      : { status: 'missing', message: loaded.kind === 'missing' ? loaded.message : '' };
  }
}

export type Attachments = ReturnType<typeof createAttachments>;
export type AttachmentLinks = Attachments['links'];
