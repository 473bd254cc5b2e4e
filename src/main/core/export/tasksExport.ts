// "Export tasks": picks the lists a request asks for and renders them in its format.
// Shared by the contract handlers and the command line.
import { AppError, notFound } from '../ipc/dispatcher';
import type { ExportReader, ListScope } from './exportReader';
import { exportFilename, MIME_TYPES, slug, type ExportFormat } from './exportFiles';
import { tasksCsv } from './tasksCsv';
import { tasksJson } from './tasksJson';
import { tasksMarkdown, type TasksDocument } from './tasksMarkdown';
import { ALL_OPEN, shownTasks, type BoardFilterShape as BoardFilter } from '../../../shared/boardView';

export interface TasksRequest {
  /** Absent with scope `open`: the open tasks across conversations (the task board). */
  conversationId?: string;
  format: ExportFormat;
  scope: ListScope | 'all';
  /** What the board shows; only for `open` across conversations (default: every unfinished list). */
  filter?: BoardFilter;
}

export interface ExportedText {
  text: string;
  filename: string;
  mimeType: string;
}

export function collectTasks(
  reader: ExportReader,
  request: Omit<TasksRequest, 'format'>,
  exportedAt: number,
): TasksDocument {
  if (request.scope === 'all') {
    const withLists = reader.conversationIdsWithLists();
    const conversations = reader
      .conversations()
      .filter((c) => withLists.has(c.id))
      .map((conversation) => ({ conversation, lists: reader.lists(conversation.id, 'history') }));
    // Routines ride along with "every task list" (the app's whole-data export), when there are any.
    const routines = reader.routines();
    return { exportedAt, scope: 'all', conversations, ...(routines.length ? { routines } : {}) };
  }
  if (!request.conversationId && request.scope === 'open') {
    return { exportedAt, scope: 'across', conversations: openAcross(reader, request.filter ?? ALL_OPEN) };
  }
  if (!request.conversationId) {
    throw new AppError('invalid_request', 'Exporting the list history needs a conversation id.');
  }
  const conversation = reader.conversation(request.conversationId);
  if (!conversation) throw notFound(`Conversation ${request.conversationId}`);
  const lists = reader.lists(conversation.id, request.scope);
  if (lists.length === 0) {
    throw new AppError(
      'not_found',
      request.scope === 'open'
        ? `"${conversation.title}" has no open task list. Export its history (every list) instead.`
        : `"${conversation.title}" has no task lists yet.`,
    );
  }
  return { exportedAt, scope: request.scope, conversations: [{ conversation, lists }] };
}

/** Each board group's open list with the tasks the board shows under the filter. */
function openAcross(reader: ExportReader, filter: BoardFilter): TasksDocument['conversations'] {
  return boardEntries(reader, reader.boardGroups(filter), filter);
}

/** These board groups' open lists with the tasks the board shows under the filter. */
export function boardEntries(
  reader: ExportReader,
  groups: ReturnType<ExportReader['boardGroups']>,
  filter: BoardFilter,
): TasksDocument['conversations'] {
  return groups.flatMap((group) => {
    const conversation = reader.conversation(group.conversationId);
    const [list] = reader.lists(group.conversationId, 'open');
    if (!conversation || !list) return [];
    const shown = new Set(shownTasks(group.list.tasks, group.title, filter).map((t) => t.id));
    return [{ conversation, lists: [{ ...list, tasks: list.tasks.filter((t) => shown.has(t.seq)) }] }];
  });
}

export function renderTasks(doc: TasksDocument, format: ExportFormat): string {
  if (format === 'md') return tasksMarkdown(doc);
  if (format === 'json') return tasksJson(doc);
  return tasksCsv(doc);
}

export function exportTasks(reader: ExportReader, request: TasksRequest, exportedAt: number): ExportedText {
  const doc = collectTasks(reader, request, exportedAt);
  const name =
    doc.scope === 'across'
      ? ['tasks', 'open']
      : request.scope === 'all'
        ? ['tasks', 'all']
        : ['tasks', slug(doc.conversations[0].conversation.title), ...(request.scope === 'history' ? ['history'] : [])];
  return {
    text: renderTasks(doc, request.format),
    filename: exportFilename(name, exportedAt, request.format),
    mimeType: MIME_TYPES[request.format],
  };
}
