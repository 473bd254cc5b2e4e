// Reads everything an export needs — conversations, task lists, tasks with their
// dependencies and history, messages, workers — with SELECTs only, so the same code serves
// the app and the command line's read-only connection.
import { createPlanExportReader } from './planExport';
import type { Message } from '../../../shared/domain';
import type { AttachmentInfo } from '../../../shared/attachments';
import type { TaskStatus } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import { messageFields, type MessageRow } from '../conversations/messageRepo';
import type { EventRow, TaskRow } from '../tasks/taskTypes';
import type { ToolCallRow } from '../ledger/ledgerStore';
import type { ToolOutcome } from '../../../shared/ledger';
import type { Row } from '../db/tables';
import { createBoardQuery, type BoardQuery } from '../tasks/boardQuery';
import type { BoardGroup } from '../../../shared/boardContract';
import type { BoardFilterShape as BoardFilter } from '../../../shared/boardView';

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

/** A conversation with its instructions and folder name joined in. */
type ConversationRow = Omit<Row<'conversations'>, 'parent_id' | 'folder_id'> & { instructions: string | null; folder_name: string | null };

/** A list with whether it is parked on a hidden branch, and its number among the conversation's lists. */
type ListRow = Pick<Row<'task_lists'>, 'id' | 'created_at' | 'closed_at'> & { parked: number; number: number };

/** A worker with its transcript's title. */
type WorkerRow = Omit<Row<'workers'>, 'conversation_id'> & { conversation_title: string };

/** A stored message; `toolCalls` keeps every field the model sent. */
/** An attachment with where its bytes are (attachments/attachmentFiles.ts). */
export type ReadAttachment = AttachmentInfo & { sha256: string };
export type ReadMessage = Omit<Message, 'toolCalls' | 'attachments'> & {
  toolCalls: Array<Record<string, unknown>> | null;
  /** Its place among the versions: the message before it on its branch, and whether that branch is shown. */
  parentId: number | null;
  shown: boolean;
  attachments?: ReadAttachment[];
};

const toConversation = (row: ConversationRow): ReadConversation => ({
  id: row.id,
  title: row.title,
  titleSource: row.title_source,
  pinned: row.pinned === 1,
  autopilot: row.autopilot === null ? null : row.autopilot === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  model: row.model_profile && row.model_name ? { profileId: row.model_profile, model: row.model_name } : null,
  instructions: row.instructions ?? '',
  folder: row.folder_name ?? null,
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
  const conversationById = db.prepare<[string], ConversationRow>(
    `SELECT c.*, i.text AS instructions, f.name AS folder_name FROM conversations c
     LEFT JOIN conversation_instructions i ON i.conversation_id = c.id
     LEFT JOIN folders f ON f.id = c.folder_id WHERE c.id = ?`,
  );
  // Top-level conversations in sidebar order; worker transcripts belong to their parent.
  const topConversations = db.prepare<[], ConversationRow>(
    `SELECT c.*, i.text AS instructions, f.name AS folder_name FROM conversations c
     LEFT JOIN conversation_instructions i ON i.conversation_id = c.id
     LEFT JOIN folders f ON f.id = c.folder_id
     WHERE c.parent_id IS NULL ORDER BY c.pinned DESC, c.updated_at DESC, c.id`,
  );
  const listsOf = db.prepare<[string], ListRow>(
    `SELECT id, created_at, closed_at, parked_on IS NOT NULL AS parked, ROW_NUMBER() OVER (ORDER BY id) AS number
     FROM task_lists WHERE conversation_id = ? ORDER BY id`,
  );
  const conversationsWithLists = db.prepare<[], { conversation_id: string }>(
    'SELECT DISTINCT conversation_id FROM task_lists',
  );
  const tasksOf = db.prepare<[number], TaskRow>('SELECT * FROM tasks WHERE list_id = ? ORDER BY position, seq');
  const depsOf = db.prepare<[number], { task_id: number; blocker_seq: number }>(
    `SELECT d.task_id, b.seq AS blocker_seq FROM task_deps d
     JOIN tasks t ON t.id = d.task_id JOIN tasks b ON b.id = d.blocked_by_id
     WHERE t.list_id = ? ORDER BY b.seq`,
  );
  const eventsOf = db.prepare<[number], EventRow>(
    'SELECT id, task_id, at, actor, kind, before, after FROM task_events WHERE list_id = ? ORDER BY id',
  );
  const toolCallsOf = db.prepare<[number], ToolCallRow>(
    'SELECT c.* FROM tool_calls c JOIN tasks t ON t.id = c.task_id WHERE t.list_id = ? ORDER BY c.id',
  );
  const messagesOf = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id');
  // A database opened read-only (the command line) may predate attachments.
  const hasAttachments = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_attachments'").get();
  const attachmentsOf = hasAttachments
    ? db.prepare<[number], { id: string; name: string; mime_type: string; kind: AttachmentInfo['kind']; size: number; sha256: string }>(
        `SELECT a.id, a.name, a.mime_type, a.kind, a.size, a.sha256 FROM message_attachments l JOIN attachments a ON a.id = l.attachment_id
         WHERE l.message_id = ? ORDER BY l.position`,
      )
    : null;
  const filesOf = (row: MessageRow): { attachments?: ReadAttachment[] } => {
    if (row.role !== 'user' || !attachmentsOf) return {};
    const files = attachmentsOf.all(row.id).map((a) => ({ id: a.id, name: a.name, mimeType: a.mime_type, kind: a.kind, size: a.size, sha256: a.sha256 }));
    return files.length ? { attachments: files } : {};
  };
  const workersOf = db.prepare<[string], WorkerRow>(
    `SELECT w.*, c.title AS conversation_title FROM workers w JOIN conversations c ON c.id = w.id
     WHERE w.conversation_id = ? ORDER BY w.number`,
  );

  function readList(row: ListRow): ReadList {
    const taskRows = tasksOf.all(row.id);
    const blockers = new Map<number, number[]>();
    for (const dep of depsOf.all(row.id)) {
      blockers.set(dep.task_id, [...(blockers.get(dep.task_id) ?? []), dep.blocker_seq]);
    }
    const taskEvents = new Map<number, ReadEvent[]>();
    const listEvents: ReadEvent[] = [];
    for (const event of eventsOf.all(row.id)) {
      if (event.task_id === null) listEvents.push(toEvent(event));
      else taskEvents.set(event.task_id, [...(taskEvents.get(event.task_id) ?? []), toEvent(event)]);
    }
    const toolCalls = new Map<number, ReadToolCall[]>();
    for (const call of toolCallsOf.all(row.id)) {
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
      const row = conversationById.get(id);
      return row ? toConversation(row) : undefined;
    },
    /** Top-level conversations (no worker transcripts), pinned first, then most recent. */
    conversations(): ReadConversation[] {
      return topConversations.all().map(toConversation);
    },
    /** The open list (`open`: zero or one) or every list, oldest first (`history`). */
    lists(conversationId: string, scope: ListScope): ReadList[] {
      const rows = listsOf.all(conversationId);
      const wanted = scope === 'open' ? rows.filter((r) => r.closed_at === null) : rows;
      return wanted.map(readList);
    },
    /** The task board's groups under a filter, newest activity first (scope "open tasks across conversations"). */
    boardGroups(filter: BoardFilter): BoardGroup[] {
      board ??= createBoardQuery(db);
      return board.all(filter);
    },
    /** Ids of conversations that have at least one task list. */
    conversationIdsWithLists(): Set<string> {
      return new Set(conversationsWithLists.all().map((r) => r.conversation_id));
    },
    messages(conversationId: string): ReadMessage[] {
      return messagesOf.all(conversationId).map((row) => ({
        ...messageFields(row),
        // Kept as stored, unknown fields and all: an export is lossless.
        toolCalls: parseToolCalls(row.tool_calls),
        parentId: row.parent_id ?? null,
        shown: row.shown !== 0,
        ...filesOf(row),
      }));
    },
    /** The "Review plans" choice and every plan revision (planExport.ts). */
    plans: createPlanExportReader(db),
    workers(conversationId: string): ReadWorker[] {
      return workersOf.all(conversationId).map((row) => ({
        conversationId: row.id,
        title: row.conversation_title,
        number: row.number,
        owner: row.owner,
        taskSeq: row.task_seq,
        description: row.description,
        expectedOutput: row.expected_output,
        status: row.status,
        result: row.result,
        createdAt: row.created_at,
        finishedAt: row.finished_at,
      }));
    },
  };
}

export type ExportReader = ReturnType<typeof createExportReader>;
