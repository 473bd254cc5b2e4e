// Every table's columns in one place, as the migrations leave them (docs/schema.sql shows
// the full SQL). Repositories take their row types from here instead of writing them by
// hand; a test compares each definition with a freshly migrated database, so a migration
// that adds a column fails until the column is listed here too.
import type { AttachmentKind } from '../../../shared/attachments';
import type { WorkerStatus } from '../../../shared/agents';
import type { Message, MessageRole, MessageStatus, ToolResultOutcome } from '../../../shared/domain';
import type { MessageKind } from '../../../shared/messageKinds';
import type { ToolOutcome } from '../../../shared/ledger';
import type { HandedBack, TaskStatus } from '../../../shared/tasks';
import type { PlanReviewModeName } from '../../../shared/planModes';
import type { ActivityKind, MissedPolicy, RunStatus } from '../../../shared/routinesContract';

type SqlType = 'INTEGER' | 'TEXT' | 'REAL';

/** A column: its SQL type, whether it may be NULL, and (for TypeScript only) its value. */
export interface Column<T> {
  readonly type: SqlType;
  readonly nullable: boolean;
  readonly value?: T;
}

function column<T>(type: SqlType): Column<T> & { orNull: Column<T | null> } {
  return { type, nullable: false, orNull: { type, nullable: true } };
}

const integer = column<number>('INTEGER');
const text = column<string>('TEXT');
const real = column<number>('REAL');
/** A TEXT column whose values are one of a known set. */
const textOf = <T extends string>() => column<T>('TEXT');

export const tables = {
  activity_events: {
    id: integer,
    kind: textOf<ActivityKind>(),
    conversation_id: text.orNull,
    routine_id: text.orNull,
    title: text,
    detail: text,
    at: integer,
    read: integer,
  },
  activity_settings: {
    key: text,
    value: integer,
  },
  attachments: {
    id: text,
    sha256: text,
    name: text,
    mime_type: text,
    kind: textOf<AttachmentKind>(),
    size: integer,
    text: text.orNull,
    created_at: integer,
    text_note: text.orNull,
  },
  conversation_instructions: {
    conversation_id: text,
    text: text,
    updated_at: integer,
  },
  conversations: {
    id: text,
    title: text,
    created_at: integer,
    updated_at: integer,
    pinned: integer,
    title_source: textOf<'user' | 'auto'>(),
    parent_id: text.orNull,
    autopilot: integer.orNull,
    model_profile: text.orNull,
    model_name: text.orNull,
    folder_id: text.orNull,
    plan_review: textOf<PlanReviewModeName>().orNull,
  },
  drafts: {
    conversation_id: text,
    content: text,
    updated_at: integer,
  },
  folders: {
    id: text,
    name: text,
    collapsed: integer,
    created_at: integer,
  },
  folder_roots: {
    folder_id: text,
    position: integer,
    path: text,
  },
  message_attachments: {
    message_id: integer,
    position: integer,
    attachment_id: text,
  },
  messages: {
    id: integer,
    conversation_id: text,
    role: textOf<MessageRole>(),
    content: text,
    created_at: integer,
    tool_calls: text.orNull,
    tool_call_id: text.orNull,
    tool_name: text.orNull,
    status: textOf<MessageStatus>(),
    error: text.orNull,
    origin: textOf<Message['origin']>(),
    reasoning: text.orNull,
    reasoning_ms: integer.orNull,
    model: text.orNull,
    prompt_tokens: integer.orNull,
    completion_tokens: integer.orNull,
    cost: real.orNull,
    summary_through: integer.orNull,
    parent_id: integer.orNull,
    chosen: integer,
    shown: integer,
    kind: textOf<MessageKind>(),
    payload: text.orNull,
    // Written again by migration 25 (the 'held' outcome), so it comes after the kinds.
    outcome: textOf<ToolResultOutcome>().orNull,
    tokens: integer.orNull,
  },
  routines: {
    id: text,
    name: text,
    instructions: text,
    schedule: text,
    model_profile: text.orNull,
    model_name: text.orNull,
    folder_id: text.orNull,
    plan_review: textOf<PlanReviewModeName>(),
    autopilot: integer,
    tools: text,
    missed: textOf<MissedPolicy>(),
    paused: integer,
    anchor_at: integer,
    next_run_at: integer.orNull,
    last_run_at: integer.orNull,
    last_outcome: textOf<RunStatus>().orNull,
    last_detail: text.orNull,
    created_at: integer,
    updated_at: integer,
  },
  routine_runs: {
    id: integer,
    routine_id: text,
    conversation_id: text.orNull,
    status: textOf<RunStatus>(),
    due_at: integer.orNull,
    started_at: integer.orNull,
    ended_at: integer.orNull,
    detail: text.orNull,
  },
  task_deps: {
    task_id: integer,
    blocked_by_id: integer,
  },
  task_events: {
    id: integer,
    list_id: integer.orNull,
    task_id: integer.orNull,
    at: integer,
    actor: text,
    kind: text,
    before: text.orNull,
    after: text.orNull,
  },
  plan_drafts: {
    conversation_id: text,
    list_id: integer,
    tasks: text,
  },
  plan_revisions: {
    conversation_id: text,
    list_id: integer,
    revision: integer,
    tasks: text,
    comments: text,
    approved_at: integer.orNull,
    created_at: integer,
  },
  plans_done: {
    conversation_id: text,
    list_id: integer,
  },
  task_continuity: {
    conversation_id: text,
    state: textOf<'running' | 'stopped' | 'paused' | 'interrupted'>(),
    at: integer,
  },
  task_lists: {
    id: integer,
    conversation_id: text,
    created_at: integer,
    closed_at: integer.orNull,
    parked_on: integer.orNull,
    search_text: text,
  },
  task_notice_marks: {
    conversation_id: text,
    event_id: integer,
  },
  task_snapshots: {
    message_id: integer,
    tasks: text,
  },
  task_user_edits: {
    list_id: integer,
    edits: text,
  },
  tasks: {
    id: integer,
    list_id: integer,
    seq: integer,
    title: text,
    description: text,
    active_form: text,
    status: textOf<TaskStatus>(),
    owner: text,
    position: integer,
    created_at: integer,
    updated_at: integer,
    completed_at: integer.orNull,
    last_message_id: integer.orNull,
    handed_back: textOf<HandedBack>().orNull,
    changed_by: text.orNull,
  },
  tool_approvals: {
    id: text,
    conversation_id: text,
    transcript_id: text,
    agent_id: text,
    tool_call_id: text,
    tool_name: text,
    server: text,
    tool: text,
    arguments: text,
    created_at: integer,
  },
  tool_calls: {
    id: integer,
    conversation_id: text,
    transcript_id: text,
    task_id: integer.orNull,
    agent_id: text,
    tool_call_id: text,
    message_id: integer.orNull,
    name: text,
    arguments: text,
    outcome: textOf<ToolOutcome>(),
    started_at: integer,
    ended_at: integer,
    result: text,
  },
  tool_outputs: {
    conversation_id: text,
    tool_call_id: text,
    images: text,
    attachments: text,
  },
  workers: {
    id: text,
    conversation_id: text,
    number: integer,
    owner: text,
    task_seq: integer.orNull,
    description: text,
    expected_output: text,
    status: textOf<WorkerStatus>(),
    result: text.orNull,
    created_at: integer,
    finished_at: integer.orNull,
  },
} as const;

export type TableName = keyof typeof tables;
type RowOf<Def> = { -readonly [K in keyof Def]: Def[K] extends Column<infer T> ? T : never };
/** A row of `table` as SQLite returns it for `SELECT *`. */
export type Row<T extends TableName> = RowOf<(typeof tables)[T]>;
