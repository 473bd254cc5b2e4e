// `board:export`: what the task board shows, written a page of lists at a time with a turn
// of the event loop between pages, so that exporting 10,000 lists never holds the host for
// long (docs/performance.md, "Task sharing under load"). The text is the same as the whole
// document rendered at once (tests/integration/export.boardStream.test.ts compares them).
// Each page resumes after the last group written (keyset), so every page costs the same;
// a list whose activity changes during the export may move to a page already written.
import fs from 'node:fs/promises';
import type { ExportReader } from './exportReader';
import type { ExportFormat } from './exportFiles';
import { boardEntries } from './tasksExport';
import { conversationSection, type TasksDocument } from './tasksMarkdown';
import { tasksCsv } from './tasksCsv';
import { collectEventRowIds, conversationExport, isoTime, numberingOf } from './tasksJson';
import { formatUtc } from '../../../shared/markdownText';
import { escapeBidiControlsInJson } from '../../../shared/bidi';
import { TASKS_FORMAT, TASKS_VERSION } from '../../../shared/exportFormat';
import type { BoardFilterShape as BoardFilter } from '../../../shared/boardView';
import { PRIVATE_FILE_MODE } from '../storage/privateFiles';

// Small enough that one page (its lists read whole: tasks, events, tool calls) is a short turn.
const PAGE = 25;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Entries = TasksDocument['conversations'];

// Keys counted per slice when the count comes first (Markdown's header): every list
// counted at once held the host on top of the first page (docs/performance.md).
const COUNT_SLICE = 2000;
const TOP = { activityAt: Number.MAX_SAFE_INTEGER, conversationId: '' };

/** How many lists the board shows under the filter, counted a slice at a time. */
async function countLists(reader: ExportReader, filter: BoardFilter): Promise<number> {
  let total = 0;
  let after: typeof TOP | null = TOP;
  while (after) {
    const slice = reader.boardCountAfter(filter, after, COUNT_SLICE);
    total += slice.counted;
    after = slice.counted < COUNT_SLICE ? null : slice.last;
    await nextTurn();
  }
  return total;
}

/** The board's entries a page at a time, and how many lists it shows in all. */
async function* pages(
  reader: ExportReader,
  filter: BoardFilter,
  counted: boolean,
): AsyncGenerator<{ total: number; entries: Entries }> {
  // Only Markdown names the count up front: counting reads every list, so only it pays.
  const total = counted ? await countLists(reader, filter) : -1;
  let groups = reader.boardPageAfter(filter, TOP, PAGE);
  for (;;) {
    yield { total, entries: boardEntries(reader, groups, filter) };
    if (groups.length < PAGE) return;
    await nextTurn();
    groups = reader.boardPageAfter(filter, groups[groups.length - 1], PAGE);
  }
}

/** The export's text in pieces; joined, they are the document rendered at once. */
export async function* boardExportChunks(
  reader: ExportReader,
  filter: BoardFilter,
  format: ExportFormat,
  exportedAt: number,
): AsyncGenerator<string> {
  if (format === 'json') {
    // Events are numbered across the file, oldest first: the whole document is read
    // first (a page at a time), then written a page at a time.
    const entries: Entries = [];
    const rowIds: number[] = [];
    for await (const page of pages(reader, filter, false)) {
      entries.push(...page.entries);
      collectEventRowIds(page.entries, rowIds);
    }
    const toEvent = numberingOf(Float64Array.from(rowIds).sort());
    await nextTurn();
    const head = { format: TASKS_FORMAT, version: TASKS_VERSION, exportedAt: isoTime(exportedAt) };
    const opening = JSON.stringify(head, null, 2).replace(/\n}$/, ',\n  "conversations": [');
    if (entries.length === 0) {
      yield `${escapeBidiControlsInJson(opening.replace(/\[$/, '[]'))}\n}\n`;
      return;
    }
    yield escapeBidiControlsInJson(opening);
    for (let i = 0; i < entries.length; i += PAGE) {
      const items = entries
        .slice(i, i + PAGE)
        .map((entry) => JSON.stringify(conversationExport(entry, toEvent), null, 2).replace(/^/gm, '    '));
      yield escapeBidiControlsInJson(`${i === 0 ? '\n' : ',\n'}${items.join(',\n')}`);
      await nextTurn();
    }
    yield '\n  ]\n}\n';
    return;
  }
  let first = true;
  for await (const { total, entries } of pages(reader, filter, format === 'md')) {
    if (format === 'csv') {
      const text = tasksCsv({ exportedAt, scope: 'across', conversations: entries });
      // The header row once, at the top (no header cell holds a line break).
      yield first ? text : text.slice(text.indexOf('\r\n') + 2);
    } else {
      const parts: string[] = [];
      if (first) {
        const exported = `Exported from Stepwise on ${formatUtc(exportedAt)}`;
        parts.push(
          '# Open tasks across conversations',
          `${exported} · ${total} ${total === 1 ? 'conversation' : 'conversations'}`,
        );
        if (total === 0) parts.push('_No open tasks._');
      }
      for (const entry of entries) parts.push(...conversationSection(entry, 2, 'across'));
      if (parts.length) yield `${first ? '' : '\n\n'}${parts.join('\n\n')}`;
    }
    first = false;
  }
  if (format === 'md') yield '\n';
}

/** The whole text (the browser host downloads it), built with turns between pages. */
export async function boardExportText(...args: Parameters<typeof boardExportChunks>): Promise<string> {
  const chunks: string[] = [];
  for await (const chunk of boardExportChunks(...args)) chunks.push(chunk);
  return chunks.join('');
}

/**
 * Streams the export into `file`: written next to it and renamed when complete (a failed
 * export never leaves half a file in place), readable only by the user.
 */
export async function writeBoardExport(file: string, chunks: AsyncIterable<string>, prefix = ''): Promise<void> {
  const temp = `${file}.${process.pid}.partial`;
  const handle = await fs.open(temp, 'w', PRIVATE_FILE_MODE);
  try {
    if (prefix) await handle.write(prefix);
    for await (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await fs.rename(temp, file);
}
