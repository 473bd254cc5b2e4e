// Every export and import the user starts: task lists, conversations, a folder, the task
// board, conversation files; this feature's part of the IPC contract (merged into
// shared/ipc.ts).
import { z } from 'zod';
import { BoardFilter } from './boardContract';
import { call, ExportResult } from './contract';
import { ConversationId } from './domain';
import { FolderId } from './folders';

/** The largest conversation export the page may send for import (the WebSocket allows a bit more). */
export const IMPORT_MAX_CHARS = 100 * 1024 * 1024;

/**
 * The browser host's streamed download of `board:export` (`?format=…&filter=<BoardFilter
 * as JSON>`, the token as a bearer): the file in pieces over HTTP, never one WebSocket frame.
 */
export const BOARD_EXPORT_PATH = '/export/board';

const ExportTasksRequest = z.strictObject({
  /** Required for `history`; `open` without it is the open tasks across conversations; ignored for `all`. */
  conversationId: ConversationId.optional(),
  format: z.enum(['md', 'json', 'csv']),
  scope: z.enum(['open', 'history', 'all']),
});

export const exportCalls = {
  /** Task lists as text (Markdown, JSON or CSV), e.g. for "Copy as Markdown". */
  'export:tasksText': call(
    ExportTasksRequest,
    z.object({ text: z.string(), filename: z.string(), mimeType: z.string() }),
  ),
  /**
   * Exports task lists to a file. The desktop app asks for the path in main with the
   * native save dialog; the browser host returns the file for the page to download.
   */
  'export:tasks': call(ExportTasksRequest, ExportResult),
  'export:conversation': call(
    z.strictObject({ conversationId: ConversationId, format: z.enum(['md', 'json']) }),
    ExportResult,
  ),
  /** Every conversation of a folder in one file (JSON: `stepwise.conversations`, which imports into the same folder). */
  'export:folder': call(z.strictObject({ folderId: FolderId, format: z.enum(['md', 'json']) }), ExportResult),
  /** What the board shows, as a file ("open tasks across conversations", like `export:tasks`). */
  'board:export': call(z.strictObject({ filter: BoardFilter, format: z.enum(['md', 'json', 'csv']) }), ExportResult),
  /**
   * Imports a conversation export (Stepwise's, or a ChatGPT `conversations.json`) as new conversations. Desktop: main shows the open
   * dialog (send no content). Browser host: the page sends the picked file's text.
   */
  'import:conversation': call(
    z.strictObject({ content: z.string().max(IMPORT_MAX_CHARS).optional() }),
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('imported'),
        conversationId: ConversationId,
        title: z.string(),
        /** A file of several conversations (a ChatGPT export): how many were stored, and which were skipped and why. */
        count: z.number().int().optional(),
        skipped: z.array(z.object({ title: z.string(), reason: z.string() })).optional(),
      }),
      z.object({ kind: z.literal('cancelled') }),
      z.object({ kind: z.literal('needs-file') }),
    ]),
  ),
} as const;
