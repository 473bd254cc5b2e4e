// A folder's conversations in one file: Markdown (each conversation as its own export,
// one after another) or `stepwise.conversations` JSON, which imports into the same folder.
import { CONVERSATIONS_FORMAT, CONVERSATIONS_VERSION, type ConversationsExport } from '../../../shared/exportFormat';
import { escapeBidiControlsInJson } from '../../../shared/bidi';
import { base64Of, type AttachmentFiles } from '../attachments/attachmentFiles';
import type { Db } from '../db/openDatabase';
import { createExportReader } from './exportReader';
import { conversationExport, readConversation } from './conversationJson';
import { conversationMarkdown } from './conversationMarkdown';
import { exportFilename, MIME_TYPES, slug } from './exportFiles';
import { escapeMarkdownLine, formatUtc } from '../../../shared/markdownText';
import { isoTime } from './tasksJson';
import type { ExportedText } from './tasksExport';
import type { FolderRepo } from '../folders/folderRepo';
import { AppError } from '../ipc/dispatcher';

export function exportFolder(
  db: Db,
  folders: FolderRepo,
  folderId: string,
  format: 'md' | 'json',
  exportedAt: number,
  /** Where attached files are: a JSON export carries their bytes. */
  files?: AttachmentFiles,
): ExportedText {
  const folder = folders.get(folderId);
  const reader = createExportReader(db);
  const members = folders.members(folderId);
  if (members.length === 0)
    throw new AppError('invalid_request', `The folder “${folder.name}” is empty: there is nothing to export.`);
  const fileData = files && format === 'json' ? base64Of(files) : undefined;
  const snapshots = members.map((id) => readConversation(reader, id, fileData));
  const filename = exportFilename(['folder', slug(folder.name)], exportedAt, format);
  if (format === 'md') {
    const count = snapshots.length;
    const head = `# ${escapeMarkdownLine(folder.name) || 'Untitled folder'}\n\nFolder exported from Stepwise on ${formatUtc(exportedAt)} · ${count} ${count === 1 ? 'conversation' : 'conversations'}\n`;
    const text = [head, ...snapshots.map((snapshot) => conversationMarkdown(snapshot, exportedAt))].join('\n---\n\n');
    return { text, filename, mimeType: MIME_TYPES.md };
  }
  const file: ConversationsExport = {
    format: CONVERSATIONS_FORMAT,
    version: CONVERSATIONS_VERSION,
    exportedAt: isoTime(exportedAt),
    folder: folder.name,
    conversations: snapshots.map((snapshot) => conversationExport(snapshot, exportedAt)),
  };
  return { text: `${escapeBidiControlsInJson(JSON.stringify(file, null, 2))}\n`, filename, mimeType: MIME_TYPES.json };
}
