// Attached files: storing one and showing its thumbnail; this feature's part of the IPC
// contract (merged into shared/ipc.ts).
import { call } from './contract';
import { AttachmentInfo, AttachmentPreview, AttachmentPreviewRequest, AttachmentUpload } from './attachments';

export const attachmentCalls = {
  /** Stores a file the user attached (its bytes as base64) once per content; send its id with the message. */
  'attachments:add': call(AttachmentUpload, AttachmentInfo),
  /** An attached image's data URL for its thumbnail (or the original, `full`), or why there is none. */
  'attachments:preview': call(AttachmentPreviewRequest, AttachmentPreview),
} as const;
