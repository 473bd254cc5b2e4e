// Task lists as `stepwise.tasks` JSON (docs/export-format.md).
import { TASKS_FORMAT, TASKS_VERSION, type TaskEventExport, type TasksExport } from '../../../shared/exportFormat';
import { maskSecretArguments, maskSecretText } from '../ledger/maskSecrets';
import type { ReadEvent, ReadList, ReadTask, ReadToolCall } from './exportReader';
import type { TasksDocument } from './tasksMarkdown';
import { escapeBidiControlsInJson } from '../../../shared/bidi';

export const isoTime = (ms: number): string => new Date(ms).toISOString();

/** Numbers events 1..n across the file, oldest first, so their order survives any reader. */
export function eventNumbering(events: Iterable<ReadEvent>): (event: ReadEvent) => TaskEventExport {
  return numberingOf(Float64Array.from(events, (event) => event.rowId).sort());
}

/**
 * The same numbering from every event's row id, sorted ascending (a typed array sorts
 * natively; a streamed export collects the ids a page at a time): an event's number is
 * its rank, found by binary search.
 */
export function numberingOf(sortedRowIds: Float64Array): (event: ReadEvent) => TaskEventExport {
  const rank = (rowId: number) => {
    let low = 0;
    let high = sortedRowIds.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sortedRowIds[middle] < rowId) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return (event) => ({
    id: rank(event.rowId) + 1,
    at: isoTime(event.at),
    actor: event.actor,
    kind: event.kind,
    before: event.before,
    after: event.after,
  });
}

/** The fields a list has in both export formats. */
export function listJson(list: ReadList) {
  return {
    id: list.number,
    createdAt: isoTime(list.createdAt),
    closedAt: list.closedAt === null ? null : isoTime(list.closedAt),
  };
}

/** A ledger entry as exported: secret-looking values never leave Stepwise. */
export function toolCallJson(call: ReadToolCall) {
  return {
    name: call.name,
    arguments: maskSecretArguments(call.arguments),
    outcome: call.outcome,
    startedAt: isoTime(call.startedAt),
    endedAt: isoTime(call.endedAt),
    result: maskSecretText(call.result),
  };
}

/** The fields a task has in both export formats. */
export function taskJson(task: ReadTask, toEvent: (event: ReadEvent) => TaskEventExport) {
  return {
    id: task.seq,
    title: task.title,
    description: task.description,
    activeForm: task.activeForm,
    status: task.status,
    owner: task.owner,
    blockedBy: task.blockedBy,
    createdAt: isoTime(task.createdAt),
    completedAt: task.completedAt === null ? null : isoTime(task.completedAt),
    events: task.events.map(toEvent),
    toolCalls: task.toolCalls.map(toolCallJson),
  };
}

/** The row ids of every event of these entries, appended to `into`. */
export function collectEventRowIds(entries: TasksDocument['conversations'], into: number[]): number[] {
  for (const { lists } of entries)
    for (const list of lists) {
      for (const event of list.events) into.push(event.rowId);
      for (const task of list.tasks) for (const event of task.events) into.push(event.rowId);
    }
  return into;
}

/** The numbering of every event in the document (one sort, oldest first). */
export function documentEventNumbering(doc: TasksDocument): (event: ReadEvent) => TaskEventExport {
  return numberingOf(Float64Array.from(collectEventRowIds(doc.conversations, [])).sort());
}

/** One conversation of the document as exported. */
export function conversationExport(
  { conversation, lists }: TasksDocument['conversations'][number],
  toEvent: (event: ReadEvent) => TaskEventExport,
): TasksExport['conversations'][number] {
  return {
    id: conversation.id,
    title: conversation.title,
    lists: lists.map((list) => ({
      ...listJson(list),
      tasks: list.tasks.map((task) => taskJson(task, toEvent)),
      events: list.events.map(toEvent),
    })),
  };
}

export function tasksExport(doc: TasksDocument): TasksExport {
  const toEvent = documentEventNumbering(doc);
  return {
    format: TASKS_FORMAT,
    version: TASKS_VERSION,
    exportedAt: isoTime(doc.exportedAt),
    conversations: doc.conversations.map((entry) => conversationExport(entry, toEvent)),
    ...(doc.routines ? { routines: doc.routines } : {}),
  };
}

export function tasksJson(doc: TasksDocument): string {
  return `${escapeBidiControlsInJson(JSON.stringify(tasksExport(doc), null, 2))}\n`;
}
