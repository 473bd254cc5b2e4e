// Read-only access to the files attached to a message (exports; SELECT only).
import type { AttachmentInfo } from '../../../shared/attachments';
import type { Db } from '../db/openDatabase';

/** An attachment with where its bytes are (attachmentFiles.ts). */
export type StoredAttachment = AttachmentInfo & { sha256: string };

/** A message's attachments in their order. */
export function createAttachmentReader(db: Db): (messageId: number) => StoredAttachment[] {
  // A database opened read-only (the command line) may predate attachments.
  const hasAttachments = !!db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_attachments'")
    .get();
  if (!hasAttachments) return () => [];
  const attachmentsOf = db.prepare<
    [number],
    { id: string; name: string; mime_type: string; kind: AttachmentInfo['kind']; size: number; sha256: string }
  >(
    `SELECT a.id, a.name, a.mime_type, a.kind, a.size, a.sha256 FROM message_attachments l JOIN attachments a ON a.id = l.attachment_id
     WHERE l.message_id = ? ORDER BY l.position`,
  );
  return (messageId) =>
    attachmentsOf
      .all(messageId)
      .map((a) => ({ id: a.id, name: a.name, mimeType: a.mime_type, kind: a.kind, size: a.size, sha256: a.sha256 }));
}
