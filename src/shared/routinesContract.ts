// Routines (runs that happen on a schedule, unattended) and Activity (one inbox for what
// happened while the user looked away): domain types, calls and events (docs/routines.md).
import { z } from 'zod';
import { call, Empty, ExportResult } from './contract';
import { ConversationId } from './domain';
import { FolderId } from './folders';
import { PlanReviewMode } from './planContract';
import { ModelRef } from './providers';

export const ScheduleKind = z.enum(['minutes', 'hourly', 'daily', 'weekdays', 'weekly', 'cron']);
export type ScheduleKind = z.infer<typeof ScheduleKind>;

/**
 * What the form sends. Only the fields of its kind are read; they are checked in core so
 * that each one gets its own message (see `RoutineFieldError`).
 */
export const RoutineSchedule = z.object({
  kind: ScheduleKind,
  /** "Every N minutes": N, at least 1. */
  minutes: z.number().nullable().default(null),
  /** "HH:MM", 24-hour, local time. */
  time: z.string().max(20).nullable().default(null),
  /** 0 = Sunday … 6 = Saturday ("Every week"). */
  day: z.number().int().nullable().default(null),
  cron: z.string().max(200).nullable().default(null),
});
export type RoutineSchedule = z.infer<typeof RoutineSchedule>;

export const MissedPolicy = z.enum(['run_once', 'skip']);
export type MissedPolicy = z.infer<typeof MissedPolicy>;

/** An acting MCP tool the routine may call without asking, in its runs only. */
export const RoutineTool = z.object({ server: z.string().min(1).max(200), tool: z.string().min(1).max(200) });
export type RoutineTool = z.infer<typeof RoutineTool>;

export const RoutineId = z.uuid({ error: 'routine id must be a UUID' });

export const RoutineInput = z.object({
  name: z.string().max(200),
  instructions: z.string().max(100_000),
  schedule: RoutineSchedule,
  model: ModelRef.nullable(),
  folderId: FolderId.nullable(),
  planReview: PlanReviewMode,
  autopilot: z.boolean(),
  tools: z.array(RoutineTool).max(500),
  missed: MissedPolicy,
});
export type RoutineInput = z.infer<typeof RoutineInput>;
/** What a caller may send (defaults not yet filled in). */
export type RoutineDraft = z.input<typeof RoutineInput>;

export const RunStatus = z.enum([
  'queued',
  'running',
  'completed',
  'waiting',
  'failed',
  'stopped',
  'interrupted',
  'missed',
  'skipped',
]);
export type RunStatus = z.infer<typeof RunStatus>;

export const RoutineRun = z.object({
  id: z.number().int(),
  routineId: RoutineId,
  conversationId: ConversationId.nullable(),
  status: RunStatus,
  /** When the schedule said the run was due (null for Run now). */
  dueAt: z.number().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** The reason of a failure, what a waiting run waits for, a missed or skipped run's note. */
  detail: z.string().nullable(),
});
export type RoutineRun = z.infer<typeof RoutineRun>;

export const Routine = z.object({
  id: RoutineId,
  name: z.string(),
  instructions: z.string(),
  schedule: RoutineSchedule,
  /** "Every day at 09:00", said for people. */
  scheduleText: z.string(),
  model: ModelRef.nullable(),
  folderId: FolderId.nullable(),
  planReview: PlanReviewMode,
  autopilot: z.boolean(),
  tools: z.array(RoutineTool),
  missed: MissedPolicy,
  paused: z.boolean(),
  nextRunAt: z.number().nullable(),
  /** Stamped when a run ends, never when it starts. */
  lastRunAt: z.number().nullable(),
  lastOutcome: RunStatus.nullable(),
  lastDetail: z.string().nullable(),
  createdAt: z.number(),
});
export type Routine = z.infer<typeof Routine>;

export const RoutineField = z.enum(['name', 'instructions', 'minutes', 'time', 'day', 'cron', 'model', 'folder']);
export type RoutineField = z.infer<typeof RoutineField>;
export const RoutineFieldError = z.object({ field: RoutineField, message: z.string() });
export type RoutineFieldError = z.infer<typeof RoutineFieldError>;

/** Saving is refused field by field: nothing is stored unless every field is right. */
export const RoutineSaved = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), routine: Routine }),
  z.object({ ok: z.literal(false), errors: z.array(RoutineFieldError) }),
]);
export type RoutineSaved = z.infer<typeof RoutineSaved>;

export const ActivityKind = z.enum(['finished', 'needs_you', 'failed', 'missed', 'skipped', 'stopped']);
export type ActivityKind = z.infer<typeof ActivityKind>;

export const ActivityEvent = z.object({
  id: z.number().int(),
  kind: ActivityKind,
  conversationId: ConversationId.nullable(),
  routineId: RoutineId.nullable(),
  /** "Daily digest · run finished", or the conversation's title. */
  title: z.string(),
  /** The first line of the final reply, what it waits for, the reason it failed. */
  detail: z.string(),
  at: z.number(),
  read: z.boolean(),
});
export type ActivityEvent = z.infer<typeof ActivityEvent>;

export const ActivityList = z.object({ events: z.array(ActivityEvent), unread: z.number().int() });
export type ActivityList = z.infer<typeof ActivityList>;

/** Settings → Notifications and Settings → Routines. */
export const ActivitySettings = z.object({
  notifyFinished: z.boolean(),
  notifyNeedsYou: z.boolean(),
  notifyFailed: z.boolean(),
  /** Desktop app: keep the process (and its routines) running with the window closed. */
  keepRunning: z.boolean(),
});
export type ActivitySettings = z.infer<typeof ActivitySettings>;

const ById = z.strictObject({ id: RoutineId });

export const routineCalls = {
  'routines:list': call(Empty, z.array(Routine)),
  'routines:save': call(z.strictObject({ id: RoutineId.nullable(), routine: RoutineInput }), RoutineSaved),
  'routines:delete': call(ById, z.object({ id: RoutineId })),
  'routines:setPaused': call(z.strictObject({ id: RoutineId, paused: z.boolean() }), Routine),
  /** Starts a run at once (it queues behind two running ones). */
  'routines:runNow': call(ById, RoutineRun),
  'routines:runs': call(
    z.strictObject({ id: RoutineId, limit: z.number().int().min(1).max(500).default(50) }),
    z.array(RoutineRun),
  ),
  /** Every routine with its run history: `stepwise.routines` JSON, or Markdown with a "Routines" section. */
  'routines:export': call(z.strictObject({ format: z.enum(['md', 'json']) }), ExportResult),
  /** A `stepwise.routines` file's text: its routines are stored paused. */
  'routines:import': call(
    z.strictObject({ text: z.string().max(50 * 1024 * 1024) }),
    z.object({ imported: z.number().int() }),
  ),
} as const;

export const activityCalls = {
  'activity:list': call(z.strictObject({ limit: z.number().int().min(1).max(500).default(200) }), ActivityList),
  'activity:markRead': call(
    z.strictObject({ id: z.number().int().nullable() }),
    z.object({ unread: z.number().int() }),
  ),
  /** Which conversation the user looks at (null: none, or the window is hidden): the others are in the background. */
  'activity:focus': call(z.strictObject({ conversationId: ConversationId.nullable() }), Empty),
  'activity:getSettings': call(Empty, ActivitySettings),
  'activity:setSettings': call(z.strictObject({ settings: ActivitySettings.partial() }), ActivitySettings),
} as const;

export const routineEvents = {
  'routines:changed': z.object({ routines: z.array(Routine) }),
} as const;

export const activityEvents = {
  /** A new Activity event; `notify` says whether Settings → Notifications asks for a notification. */
  'activity:added': z.object({ event: ActivityEvent, unread: z.number().int(), notify: z.boolean() }),
  'activity:read': z.object({ unread: z.number().int() }),
  'activity:settings': ActivitySettings,
  /** The desktop app's notification was clicked: the page opens that conversation. */
  'activity:open': z.object({ conversationId: ConversationId }),
} as const;
