// Contract handlers for export and import. With file dialogs (the desktop app) main asks
// for the path and reads or writes the file itself; without them (the browser host) the
// page downloads the text or sends the picked file's text. The renderer never sends a path.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/openDatabase';
import type { ConversationRepo } from '../conversations/conversationRepo';
import { AppError } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import { parseConversationExport } from './conversationImport';
import { conversationJson, readConversation } from './conversationJson';
import { conversationMarkdown } from './conversationMarkdown';
import { writeImportedConversation, type ImportedFiles } from './conversationWrite';
import { isChatGptExport, readChatGptExport } from './chatgptImport';
import { writeChatGptConversations } from './chatgptWrite';
import { createImportStaging } from '../conversations/importStaging';
import { createExportReader } from './exportReader';
import { base64Of, type AttachmentFiles } from '../attachments/attachmentFiles';
import type { Attachments } from '../attachments/attachmentsModule';
import { exportFilename, filterFor, MIME_TYPES, slug, type ExportFormat, type FileFilter } from './exportFiles';
import { UTF8_BOM } from './tasksCsv';
import { exportTasks, type ExportedText } from './tasksExport';
import { writePrivateFile } from '../storage/writePrivateFile';
import type { FolderRepo } from '../folders/folderRepo';
import { exportFolder } from './folderExport';
import { parseConversationsBundle } from './bundleImport';
import type { ConversationExport } from '../../../shared/exportFormat';
import type { BoardFilterShape as BoardFilter } from '../../../shared/boardView';
import { boardExportChunks, boardExportText, writeBoardExport } from './boardExport';
import type { HandlersFor } from '../../../shared/contract';
import type { exportCalls } from '../../../shared/exportContract';

/** Native file dialogs, provided by the desktop app. Each resolves to a path, or null when cancelled. */
export interface FileDialogs {
  save(defaultName: string, filters: FileFilter[]): Promise<string | null>;
  open(filters: FileFilter[]): Promise<string | null>;
}

/** Same limit as the contract's `content` for the browser host. */
export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;

type ExportCalls = HandlersFor<typeof exportCalls>;

/** `files`: the attached files' store; without it a JSON export carries none of their bytes. */
export function exportConversation(
  db: Db,
  conversationId: string,
  format: 'md' | 'json',
  exportedAt: number,
  files?: AttachmentFiles,
): ExportedText {
  const fileData = files && format === 'json' ? base64Of(files) : undefined;
  const snapshot = readConversation(createExportReader(db), conversationId, fileData);
  const text = format === 'md' ? conversationMarkdown(snapshot, exportedAt) : conversationJson(snapshot, exportedAt);
  const filename = exportFilename(['conversation', slug(snapshot.conversation.title)], exportedAt, format);
  return { text, filename, mimeType: MIME_TYPES[format] };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes next to the target and renames (a failed write never leaves half a file in
 * place), readable only by the user: an export holds the same private text as the app.
 */
async function writeFileWhole(file: string, text: string): Promise<void> {
  try {
    await writePrivateFile(file, text);
  } catch (error) {
    throw new AppError('internal', `Could not save ${file}: ${describeError(error)}`);
  }
}

async function readImportFile(file: string): Promise<string> {
  try {
    const stat = await fs.stat(file);
    if (stat.size > IMPORT_MAX_BYTES) {
      throw new AppError(
        'invalid_request',
        `${path.basename(file)} is larger than 200 MB, so it is not a conversation export Stepwise can import.`,
      );
    }
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('internal', `Could not read ${file}: ${describeError(error)}`);
  }
}

/** An imported conversation as stored. */
type Stored = { conversationId: string; title: string };

export function createExport(deps: {
  db: Db;
  bus: EventBus;
  conversations: ConversationRepo;
  folders: FolderRepo;
  fileDialogs?: FileDialogs;
  now: () => number;
  /** Attached files: exported with their conversation (JSON) and stored again on import. */
  attachments?: Pick<Attachments, 'files' | 'links' | 'store'>;
}) {
  const { db, bus, conversations, folders, fileDialogs, now, attachments } = deps;
  const reader = createExportReader(db);
  // What a ChatGPT import stopped by a crash left behind (hidden, never half shown).
  createImportStaging(db).dropAbandoned();

  async function deliver(exported: ExportedText, format: ExportFormat) {
    // Spreadsheet apps need the byte-order mark to read a CSV file as UTF-8.
    const text = format === 'csv' ? UTF8_BOM + exported.text : exported.text;
    if (!fileDialogs)
      return { kind: 'download' as const, filename: exported.filename, mimeType: exported.mimeType, text };
    const file = await fileDialogs.save(exported.filename, [filterFor(format)]);
    if (!file) return { kind: 'cancelled' as const };
    await writeFileWhole(file, text);
    return { kind: 'saved' as const, path: file };
  }

  /**
   * The board's export as pieces of text, for the browser host's streamed download
   * (`GET /export/board`): no piece is the whole file, and each is made in its own turn.
   */
  function boardDownload(filter: BoardFilter, format: ExportFormat) {
    const exportedAt = now();
    const bom = format === 'csv' ? UTF8_BOM : '';
    async function* chunks(): AsyncGenerator<string> {
      if (bom) yield bom;
      yield* boardExportChunks(reader, filter, format, exportedAt);
    }
    return { filename: exportFilename(['tasks', 'open'], exportedAt, format), mimeType: MIME_TYPES[format], chunks };
  }

  /** The board's export, written (or built for download) a page at a time. */
  async function deliverBoard(filter: BoardFilter, format: ExportFormat) {
    const exportedAt = now();
    const filename = exportFilename(['tasks', 'open'], exportedAt, format);
    const bom = format === 'csv' ? UTF8_BOM : '';
    if (!fileDialogs) {
      const text = bom + (await boardExportText(reader, filter, format, exportedAt));
      return { kind: 'download' as const, filename, mimeType: MIME_TYPES[format], text };
    }
    const file = await fileDialogs.save(filename, [filterFor(format)]);
    if (!file) return { kind: 'cancelled' as const };
    try {
      await writeBoardExport(file, boardExportChunks(reader, filter, format, exportedAt), bom);
    } catch (error) {
      throw new AppError('internal', `Could not save ${file}: ${describeError(error)}`);
    }
    return { kind: 'saved' as const, path: file };
  }

  /** A ChatGPT export when it parses as one; null sends the text to the Stepwise reader (and its errors). */
  function chatGptData(text: string): unknown[] | null {
    const body = text.replace(/^\uFEFF/, '');
    if (!body.trimStart().startsWith('[')) return null;
    try {
      const data: unknown = JSON.parse(body);
      return isChatGptExport(data) ? data : null;
    } catch {
      return null;
    }
  }

  async function importChatGpt(data: unknown[]) {
    const { conversations: read, skipped } = await readChatGptExport(data, now());
    if (read.length === 0) {
      const reasons = skipped
        .slice(0, 3)
        .map((s) => `“${s.title}”: ${s.reason}`)
        .join('; ');
      throw new AppError(
        'invalid_request',
        `No conversation of this ChatGPT export could be imported (${reasons}). Nothing was imported.`,
      );
    }
    // Newest first, as ChatGPT lists them; the newest one is opened.
    const ordered = [...read].sort((a, b) => b.updatedAt - a.updatedAt);
    const stored = await storeImported('conversations', () => writeChatGptConversations(db, ordered, now()));
    return { kind: 'imported' as const, ...stored[0]!, count: stored.length, skipped };
  }

  /**
   * Runs an import's write (one transaction: all or nothing) and announces each stored
   * conversation; a failed write rolled back, which the error says in words the user can act on.
   */
  async function storeImported(
    what: 'conversation' | 'conversations',
    write: () => Stored[] | Promise<Stored[]>,
  ): Promise<Stored[]> {
    let stored: Stored[];
    try {
      stored = await write();
    } catch (error) {
      throw new AppError(
        'internal',
        `Stepwise could not store the imported ${what} (${describeError(error)}). Nothing was imported.`,
      );
    }
    for (const { conversationId } of stored) {
      bus.emit('conversations:changed', {
        id: conversationId,
        kind: 'created',
        conversation: conversations.summary(conversationId) ?? null,
      });
    }
    return stored;
  }

  /** A folder's export: every conversation or none, in one transaction, filed in its folder again. */
  async function importBundle(files: ConversationExport[]) {
    // Attached files first, as for one conversation: they are not SQLite's to roll back.
    const attached: Array<ImportedFiles | undefined> = [];
    for (const file of files) attached.push(await storeFiles(file));
    const stored = await storeImported('conversations', () =>
      db.transaction(() => files.map((file, index) => writeImportedConversation(db, file, now(), attached[index])))(),
    );
    bus.emit('folders:changed', { folders: folders.list() });
    return { kind: 'imported' as const, ...stored[0]!, count: stored.length, skipped: [] };
  }

  /**
   * Stores the files of the export's messages first (their writes are not SQLite's): by the
   * export's message number. If the import then fails, the files are collected later.
   */
  async function storeFiles(data: ConversationExport): Promise<ImportedFiles | undefined> {
    const messages = [...data.messages, ...data.workers.flatMap((w) => w.messages)].filter(
      (m) => m.attachments?.length,
    );
    if (!messages.length || !attachments) return undefined;
    const ids = new Map<number, string[]>();
    for (const message of messages) {
      const stored: string[] = [];
      // A file missing when it was exported has no bytes: it cannot come back.
      for (const file of message.attachments!.filter((f) => f.data !== null)) {
        try {
          stored.push((await attachments.store(file.name, Buffer.from(file.data!, 'base64'))).id);
        } catch (error) {
          throw new AppError(
            'invalid_request',
            `A file of message ${message.id} could not be stored: ${describeError(error)} Nothing was imported.`,
          );
        }
      }
      ids.set(message.id, stored);
    }
    return { links: attachments.links, ids };
  }

  async function importText(text: string) {
    const chatGpt = chatGptData(text);
    if (chatGpt) return importChatGpt(chatGpt);
    const bundle = parseConversationsBundle(text);
    if (bundle) return importBundle(bundle);
    const data = parseConversationExport(text);
    const files = await storeFiles(data);
    const [imported] = await storeImported('conversation', () => [writeImportedConversation(db, data, now(), files)]);
    if (data.conversation.folder) bus.emit('folders:changed', { folders: folders.list() });
    return { kind: 'imported' as const, ...imported };
  }

  const handlers: ExportCalls = {
    'export:tasksText': (request) => exportTasks(reader, request, now()),
    'export:tasks': (request) => deliver(exportTasks(reader, request, now()), request.format),
    // What the task board shows: the open tasks across conversations under its filter.
    'board:export': ({ filter, format }) => deliverBoard(filter, format),
    'export:conversation': ({ conversationId, format }) =>
      deliver(exportConversation(db, conversationId, format, now(), attachments?.files), format),
    'export:folder': ({ folderId, format }) =>
      deliver(exportFolder(db, folders, folderId, format, now(), attachments?.files), format),
    'import:conversation': async ({ content }) => {
      if (content !== undefined) return importText(content);
      if (!fileDialogs) return { kind: 'needs-file' as const };
      const file = await fileDialogs.open([filterFor('json')]);
      if (!file) return { kind: 'cancelled' as const };
      return importText(await readImportFile(file));
    },
  };
  return { handlers, boardDownload };
}
