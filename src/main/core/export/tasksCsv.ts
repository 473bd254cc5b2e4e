// Task lists as CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when they
// hold a comma, quote or line break), one row per task. Cells a spreadsheet would run as
// a formula get a leading apostrophe (csv-stringify's `escape_formulas`).
import { stringify } from 'csv-stringify/sync';
import { revealBidiControls } from '../../../shared/bidi';
import type { TasksDocument } from './tasksMarkdown';
import { isoTime } from './tasksJson';

export const CSV_COLUMNS = [
  'conversation',
  'conversation_id',
  'list',
  'id',
  'title',
  'status',
  'owner',
  'blocked_by',
  'created_at',
  'completed_at',
  'description',
  'tool_calls',
  'changed_by',
] as const;

/** A byte-order mark lets spreadsheet apps detect UTF-8 (emoji, RTL text) in files they open. */
export const UTF8_BOM = '\uFEFF';

export function tasksCsv(doc: TasksDocument): string {
  const rows: string[][] = [];
  for (const { conversation, lists } of doc.conversations) {
    for (const list of lists) {
      for (const task of list.tasks) {
        rows.push([
          revealBidiControls(conversation.title),
          conversation.id,
          String(list.number),
          String(task.seq),
          revealBidiControls(task.title),
          task.status,
          task.owner,
          task.blockedBy.join(' '),
          isoTime(task.createdAt),
          task.completedAt === null ? '' : isoTime(task.completedAt),
          revealBidiControls(task.description),
          String(task.toolCalls.length),
          revealBidiControls(task.changedBy ?? ''),
        ]);
      }
    }
  }
  return stringify(rows, {
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
    escape_formulas: true,
  });
}
