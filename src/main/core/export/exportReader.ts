// Reads everything an export needs — conversations, task lists, tasks with their
// dependencies and history, messages, workers, plans — through the readers of the modules
// that own those tables (SELECTs only), so the same code serves the app and the command
// line's read-only connection. What is read here is shaped for the export formats; no SQL.
import type { Message } from '../../../shared/domain';
import type { TaskStatus } from '../../../shared/tasks';
import type { ToolOutcome } from '../../../shared/ledger';
import type { BoardGroup } from '../../../shared/boardContract';
import type { BoardFilterShape as BoardFilter } from '../../../shared/boardView';
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';
import { messageFields } from '../conversations/messageRepo';
import { createConversationReader } from '../conversations/conversationReader';
import { createInstructionsReader } from '../instructions/instructionsReader';
import { createFolderNameReader } from '../folders/folderReader';
import { createTaskListReader, type NumberedListRow } from '../tasks/taskListReader';
import type { EventRow } from '../tasks/taskTypes';
import { createBoardQuery, type BoardQuery } from '../board/boardQuery';
import { createToolCallReader } from '../ledger/toolCallReader';
import type { ToolCallRow } from '../ledger/ledgerStore';
import { createAttachmentReader, type StoredAttachment } from '../attachments/attachmentReader';
import { createWorkerReader } from '../agents/workerReader';
import { createPlanReader } from '../plans/planReader';
import { toRevision } from '../plans/planStore';
import type { ReadPlans } from './planExport';
import { readRoutines } from '../routines/routinesReader';

export interface ReadConversation {
  id: string;
  title: string;
  titleSource: 'user' | 'auto';
  pinned: boolean;
  autopilot: boolean | null;
  createdAt: number;
  updatedAt: number;
  model: { profileId: string; model: string } | null;
  /** The conversation's own instructions ('' for none). */
  instructions: string;
  /** The name of its sidebar folder, or null. */
  folder: string | null;
}

export interface ReadEvent {
  /** The row id: orders events across a whole database. */
  rowId: number;
  at: number;
  actor: string;
  kind: string;
  before: string | null;
  after: string | null;
}

/** A tool call of the task ledger, as stored (unmasked). */
export interface ReadToolCall {
  name: string;
  arguments: string;
  outcome: ToolOutcome;
  startedAt: number;
  endedAt: number;
  /** The first 500 characters of the result. */
  result: string;
  agentId: string;
  toolCallId: string;
  /** The tool result message's database id, or null once it was removed. */
  messageId: number | null;
}

export interface ReadTask {
  /** The id users and the model see (tasks.seq). */
  seq: number;
  title: string;
  description: string;
  activeForm: string;
  status: TaskStatus;
  owner: string;
  position: number;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
  lastMessageId: number | null;
  /** The MCP client whose change is the task's last one (as the header's "Changed by"), or null. */
  changedBy: string | null;
  /** Seqs of the tasks this one waits for, ascending. */
  blockedBy: number[];
  events: ReadEvent[];
  /** Tool calls made while it was in progress, oldest first. */
  toolCalls: ReadToolCall[];
}

export interface ReadList {
  /** 1 for the conversation's first list, 2 for the next, … */
  number: number;
  createdAt: number;
  closedAt: number | null;
  /** The list of a branch that is not shown (tasks/branchLists.ts): kept, but not the shown branch's. */
  parked: boolean;
  tasks: ReadTask[];
  /** Events of the list itself and of tasks deleted since. */
  events: ReadEvent[];
}

export interface ReadWorker {
  conversationId: string;
  title: string;
  number: number;
  owner: string;
  taskSeq: number | null;
  description: string;
  expectedOutput: string;
  status: 'queued' | 'running' | 'done' | 'error' | 'stopped';
  result: string | null;
  createdAt: number;
  finishedAt: number | null;
}

export type ListScope = 'open' | 'history';

/** An attachment with where its bytes are (attachments/attachmentFiles.ts). */
export type ReadAttachment = StoredAttachment;
/** A stored message; `toolCalls` keeps every field the model sent. */
export type ReadMessage = Omit<Message, 'toolCalls' | 'attachments'> & {
  toolCalls: Array<Record<string, unknown>> | null;
  /** Its place among the versions: the message before it on its branch, and whether that branch is shown. */
  parentId: number | null;
  shown: boolean;
  attachments?: ReadAttachment[];
};

const toConversation = (
  row: Row<'conversations'>,
  instructions: string | null,
  folder: string | null,
): ReadConversation => ({
  id: row.id,
  title: row.title,
  titleSource: row.title_source,
  pinned: row.pinned === 1,
  autopilot: row.autopilot === null ? null : row.autopilot === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  model: row.model_profile && row.model_name ? { profileId: row.model_profile, model: row.model_name } : null,
  instructions: instructions ?? '',
  folder,
});

const toEvent = (row: EventRow): ReadEvent => ({
  rowId: row.id,
  at: row.at,
  actor: row.actor,
  kind: row.kind,
  before: row.before,
  after: row.after,
});

const toToolCall = (row: ToolCallRow): ReadToolCall => ({
  name: row.name,
  arguments: row.arguments,
  outcome: row.outcome,
  startedAt: row.started_at,
  endedAt: row.ended_at,
  result: row.result,
  agentId: row.agent_id,
  toolCallId: row.tool_call_id,
  messageId: row.message_id,
});

function parseToolCalls(text: string | null): Array<Record<string, unknown>> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as Array<Record<string, unknown>>) : null;
  } catch {
    return null;
  }
}

export function createExportReader(db: Db) {
  // Made on first use: most exports never ask for the board's lists.
  let board: BoardQuery | null = null;
  const conversations = createConversationReader(db);
  const instructionsOf = createInstructionsReader(db);
  const folderName = createFolderNameReader(db);
  const taskLists = createTaskListReader(db);
  const toolCallsOf = createToolCallReader(db);
  const attachmentsOf = createAttachmentReader(db);
  const workersOf = createWorkerReader(db);
  const plans = createPlanReader(db);

  const readConversation = (row: Row<'conversations'>): ReadConversation =>
    toConversation(row, instructionsOf(row.id), row.folder_id === null ? null : folderName(row.folder_id));

  const filesOf = (row: Row<'messages'>): { attachments?: ReadAttachment[] } => {
    if (row.role !== 'user') return {};
    const files = attachmentsOf(row.id);
    return files.length ? { attachments: files } : {};
  };

  function readList(row: NumberedListRow): ReadList {
    const taskRows = taskLists.tasks(row.id);
    const blockers = new Map<number, number[]>();
    for (const dep of taskLists.blockers(row.id)) {
      blockers.set(dep.task_id, [...(blockers.get(dep.task_id) ?? []), dep.blocker_seq]);
    }
    const taskEvents = new Map<number, ReadEvent[]>();
    const listEvents: ReadEvent[] = [];
    for (const event of taskLists.events(row.id)) {
      if (event.task_id === null) listEvents.push(toEvent(event));
      else taskEvents.set(event.task_id, [...(taskEvents.get(event.task_id) ?? []), toEvent(event)]);
    }
    const toolCalls = new Map<number, ReadToolCall[]>();
    for (const call of toolCallsOf(taskRows.map((t) => t.id))) {
      toolCalls.set(call.task_id!, [...(toolCalls.get(call.task_id!) ?? []), toToolCall(call)]);
    }
    return {
      number: row.number,
      createdAt: row.created_at,
      closedAt: row.closed_at,
      parked: row.parked !== 0,
      events: listEvents,
      tasks: taskRows.map((t) => ({
        seq: t.seq,
        title: t.title,
        description: t.description,
        activeForm: t.active_form,
        status: t.status,
        owner: t.owner,
        position: t.position,
        createdAt: t.created_at,
        updatedAt: t.updated_at,
        completedAt: t.completed_at,
        lastMessageId: t.last_message_id,
        // A database from before task sharing (the command line reads any) has no such column.
        changedBy: t.changed_by ?? null,
        blockedBy: blockers.get(t.id) ?? [],
        events: taskEvents.get(t.id) ?? [],
        toolCalls: toolCalls.get(t.id) ?? [],
      })),
    };
  }

  return {
    conversation(id: string): ReadConversation | undefined {
      const row = conversations.row(id);
      return row ? readConversation(row) : undefined;
    },
    /** Top-level conversations (no worker transcripts), pinned first, then most recent. */
    conversations(): ReadConversation[] {
      return conversations.topLevelRows().map(readConversation);
    },
    /** The open list (`open`: zero or one) or every list, oldest first (`history`). */
    lists(conversationId: string, scope: ListScope): ReadList[] {
      const rows = taskLists.lists(conversationId);
      const wanted = scope === 'open' ? rows.filter((r) => r.closed_at === null) : rows;
      return wanted.map(readList);
    },
    /** The task board's groups under a filter, newest activity first (scope "open tasks across conversations"). */
    boardGroups(filter: BoardFilter): BoardGroup[] {
      board ??= createBoardQuery(db);
      return board.all(filter);
    },
    /** How many matching groups follow one (at most `limit`), and the last of them. */
    boardCountAfter(filter: BoardFilter, last: Pick<BoardGroup, 'activityAt' | 'conversationId'>, limit: number) {
      board ??= createBoardQuery(db);
      return board.countAfter(filter, { activityAt: last.activityAt, conversationId: last.conversationId }, limit);
    },
    /** The next page after a group already read. */
    boardPageAfter(
      filter: BoardFilter,
      last: Pick<BoardGroup, 'activityAt' | 'conversationId'>,
      limit: number,
    ): BoardGroup[] {
      board ??= createBoardQuery(db);
      return board.after(filter, { activityAt: last.activityAt, conversationId: last.conversationId }, limit);
    },
    /** Ids of conversations that have at least one task list. */
    conversationIdsWithLists(): Set<string> {
      return new Set(taskLists.conversationIds());
    },
    messages(conversationId: string): ReadMessage[] {
      return conversations.messageRows(conversationId).map((row) => ({
        ...messageFields(row),
        // Kept as stored, unknown fields and all: an export is lossless.
        toolCalls: parseToolCalls(row.tool_calls),
        parentId: row.parent_id ?? null,
        shown: row.shown !== 0,
        ...filesOf(row),
      }));
    },
    /** The "Review plans" choice and every plan revision, each with its list's number (planExport.ts). */
    plans(conversationId: string): ReadPlans {
      const listNumbers = new Map(taskLists.lists(conversationId).map((l) => [l.id, l.number]));
      return {
        mode: plans.mode(conversationId),
        // A revision whose list is not among the conversation's lists has nothing to belong to.
        revisions: plans.revisions(conversationId).flatMap((row) => {
          const list = listNumbers.get(row.list_id);
          return list === undefined ? [] : [{ ...toRevision(row), list }];
        }),
      };
    },
    /** Every routine with its run history, its folder by name. */
    routines: () => readRoutines(db, folderName),
    workers(conversationId: string): ReadWorker[] {
      // A worker whose transcript is gone has no title: it is left out, as it always was.
      return workersOf(conversationId).flatMap((row) => {
        const transcript = conversations.row(row.id);
        if (!transcript) return [];
        return [
          {
            conversationId: row.id,
            title: transcript.title,
            number: row.number,
            owner: row.owner,
            taskSeq: row.task_seq,
            description: row.description,
            expectedOutput: row.expected_output,
            status: row.status,
            result: row.result,
            createdAt: row.created_at,
            finishedAt: row.finished_at,
          },
        ];
      });
    },
  };
}

export type ExportReader = ReturnType<typeof createExportReader>;
