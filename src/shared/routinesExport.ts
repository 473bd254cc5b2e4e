// The routines export, `stepwise.routines` version 1 (docs/export-format.md): every
// routine with its settings and its run history. An import restores the routines paused.
import { z } from 'zod';
import { IsoTime } from './isoTime';
import { PLAN_REVIEW_MODES } from './planModes';
import { MissedPolicy, RoutineSchedule, RoutineTool, RunStatus } from './routinesContract';

export const ROUTINES_FORMAT = 'stepwise.routines';
export const ROUTINES_VERSION = 1;

export const RoutineRunExport = z.strictObject({
  status: RunStatus,
  /** When the schedule said the run was due (null: Run now). */
  dueAt: IsoTime.nullable(),
  startedAt: IsoTime.nullable(),
  endedAt: IsoTime.nullable(),
  /** A failure's reason, what a waiting run waited for, a missed or skipped run's note. */
  detail: z.string().nullable(),
  /** The run's conversation in the exporting Stepwise (null: none, or deleted since). */
  conversationId: z.string().nullable(),
});

export const RoutineExport = z.strictObject({
  name: z.string().min(1).max(200),
  instructions: z.string().min(1).max(100_000),
  schedule: RoutineSchedule,
  /** Said for people, e.g. "Every weekday at 09:00". */
  scheduleText: z.string(),
  model: z.strictObject({ profileId: z.string(), model: z.string() }).nullable(),
  /** The folder's name (folders are matched by name on import). */
  folder: z.string().nullable(),
  planReview: z.enum(PLAN_REVIEW_MODES),
  autopilot: z.boolean(),
  tools: z.array(RoutineTool),
  missed: MissedPolicy,
  paused: z.boolean(),
  createdAt: IsoTime,
  lastRunAt: IsoTime.nullable(),
  lastOutcome: RunStatus.nullable(),
  /** Oldest first. */
  runs: z.array(RoutineRunExport),
});
export type RoutineExport = z.infer<typeof RoutineExport>;

export const RoutinesExport = z.strictObject({
  format: z.literal(ROUTINES_FORMAT),
  version: z.literal(ROUTINES_VERSION),
  exportedAt: IsoTime,
  routines: z.array(RoutineExport),
});
export type RoutinesExport = z.infer<typeof RoutinesExport>;
