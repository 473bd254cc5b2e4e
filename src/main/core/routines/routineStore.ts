// SQL only: the `routines` and `routine_runs` tables (migration 23).
import type { ModelRef } from '../../../shared/providers';
import type {
  MissedPolicy,
  Routine,
  RoutineRun,
  RoutineSchedule,
  RoutineTool,
  RunStatus,
} from '../../../shared/routinesContract';
import type { PlanReviewModeName } from '../../../shared/planModes';
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';
import { scheduleText } from './schedule';

export type RoutineRow = Row<'routines'>;
type RunRow = Row<'routine_runs'>;

/** A routine as stored, before it is shown: what the scheduler and the runner read. */
export interface StoredRoutine {
  id: string;
  name: string;
  instructions: string;
  schedule: RoutineSchedule;
  model: ModelRef | null;
  folderId: string | null;
  planReview: PlanReviewModeName;
  autopilot: boolean;
  tools: RoutineTool[];
  missed: MissedPolicy;
  paused: boolean;
  anchorAt: number;
  nextRunAt: number | null;
}

export function toStored(row: RoutineRow): StoredRoutine {
  return {
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    schedule: JSON.parse(row.schedule) as RoutineSchedule,
    model: row.model_profile && row.model_name ? { profileId: row.model_profile, model: row.model_name } : null,
    folderId: row.folder_id,
    planReview: row.plan_review,
    autopilot: row.autopilot === 1,
    tools: JSON.parse(row.tools) as RoutineTool[],
    missed: row.missed,
    paused: row.paused === 1,
    anchorAt: row.anchor_at,
    nextRunAt: row.next_run_at,
  };
}

export function toRoutine(row: RoutineRow): Routine {
  const stored = toStored(row);
  return {
    id: stored.id,
    name: stored.name,
    instructions: stored.instructions,
    schedule: stored.schedule,
    scheduleText: scheduleText(stored.schedule),
    model: stored.model,
    folderId: stored.folderId,
    planReview: stored.planReview,
    autopilot: stored.autopilot,
    tools: stored.tools,
    missed: stored.missed,
    paused: stored.paused,
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    lastOutcome: row.last_outcome,
    lastDetail: row.last_detail,
    createdAt: row.created_at,
  };
}

export function toRun(row: RunRow): RoutineRun {
  return {
    id: row.id,
    routineId: row.routine_id,
    conversationId: row.conversation_id,
    status: row.status,
    dueAt: row.due_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    detail: row.detail,
  };
}

/** A routine to store, and when. */
export interface RoutineWrite extends StoredRoutine {
  at: number;
}

export function createRoutineStore(db: Db) {
  const all = db.prepare<[], RoutineRow>('SELECT * FROM routines ORDER BY name COLLATE NOCASE, id');
  const byId = db.prepare<[string], RoutineRow>('SELECT * FROM routines WHERE id = ?');
  const byName = db.prepare<[string], RoutineRow>(
    'SELECT * FROM routines WHERE name = ? COLLATE NOCASE ORDER BY created_at LIMIT 1',
  );
  const due = db.prepare<[number], RoutineRow>(
    'SELECT * FROM routines WHERE paused = 0 AND next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, id',
  );
  const soonest = db.prepare<[], { at: number | null }>(
    'SELECT MIN(next_run_at) AS at FROM routines WHERE paused = 0 AND next_run_at IS NOT NULL',
  );
  const upsert = db.prepare(
    `INSERT INTO routines (id, name, instructions, schedule, model_profile, model_name, folder_id, plan_review, autopilot,
       tools, missed, paused, anchor_at, next_run_at, created_at, updated_at)
     VALUES (@id, @name, @instructions, @schedule, @model_profile, @model_name, @folder_id, @plan_review, @autopilot,
       @tools, @missed, @paused, @anchor_at, @next_run_at, @at, @at)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, instructions = excluded.instructions, schedule = excluded.schedule,
       model_profile = excluded.model_profile, model_name = excluded.model_name, folder_id = excluded.folder_id,
       plan_review = excluded.plan_review, autopilot = excluded.autopilot, tools = excluded.tools, missed = excluded.missed,
       paused = excluded.paused, anchor_at = excluded.anchor_at, next_run_at = excluded.next_run_at, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[string]>('DELETE FROM routines WHERE id = ?');
  const setNext = db.prepare<[number | null, string]>('UPDATE routines SET next_run_at = ? WHERE id = ?');
  const setPaused = db.prepare<[number, number | null, number, string]>(
    'UPDATE routines SET paused = ?, next_run_at = ?, anchor_at = ? WHERE id = ?',
  );
  const stampLast = db.prepare<[number, RunStatus, string | null, string]>(
    'UPDATE routines SET last_run_at = ?, last_outcome = ?, last_detail = ? WHERE id = ?',
  );
  const insertRun = db.prepare<
    [string, string | null, RunStatus, number | null, number | null, number | null, string | null]
  >(
    `INSERT INTO routine_runs (routine_id, conversation_id, status, due_at, started_at, ended_at, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const runById = db.prepare<[number], RunRow>('SELECT * FROM routine_runs WHERE id = ?');
  const runsOf = db.prepare<[string, number], RunRow>(
    'SELECT * FROM routine_runs WHERE routine_id = ? ORDER BY id DESC LIMIT ?',
  );
  const allRuns = db.prepare<[], RunRow>('SELECT * FROM routine_runs ORDER BY id');
  const startRun = db.prepare<[string | null, number, number]>(
    "UPDATE routine_runs SET status = 'running', conversation_id = ?, started_at = ? WHERE id = ?",
  );
  const endRun = db.prepare<[RunStatus, number, string | null, number]>(
    'UPDATE routine_runs SET status = ?, ended_at = ?, detail = ? WHERE id = ?',
  );
  const leftover = db.prepare<[RunStatus], RunRow>('SELECT * FROM routine_runs WHERE status = ? ORDER BY id');
  const runOfConversation = db.prepare<[string], { routine_id: string; tools: string }>(
    `SELECT r.id AS routine_id, r.tools FROM routine_runs rr JOIN routines r ON r.id = rr.routine_id
     WHERE rr.conversation_id = ? LIMIT 1`,
  );

  return {
    all: (): RoutineRow[] => all.all(),
    get: (id: string): RoutineRow | undefined => byId.get(id),
    byName: (name: string): RoutineRow | undefined => byName.get(name),
    due: (at: number): RoutineRow[] => due.all(at),
    soonest: (): number | null => soonest.get()?.at ?? null,
    save(routine: RoutineWrite): void {
      upsert.run({
        id: routine.id,
        name: routine.name,
        instructions: routine.instructions,
        schedule: JSON.stringify(routine.schedule),
        model_profile: routine.model?.profileId ?? null,
        model_name: routine.model?.model ?? null,
        folder_id: routine.folderId,
        plan_review: routine.planReview,
        autopilot: routine.autopilot ? 1 : 0,
        tools: JSON.stringify(routine.tools),
        missed: routine.missed,
        paused: routine.paused ? 1 : 0,
        anchor_at: routine.anchorAt,
        next_run_at: routine.nextRunAt,
        at: routine.at,
      });
    },
    remove: (id: string): boolean => remove.run(id).changes > 0,
    setNext: (id: string, at: number | null): void => void setNext.run(at, id),
    setPaused: (id: string, paused: boolean, next: number | null, anchor: number): void =>
      void setPaused.run(paused ? 1 : 0, next, anchor, id),
    stampLast: (id: string, at: number, outcome: RunStatus, detail: string | null): void =>
      void stampLast.run(at, outcome, detail, id),
    /** A run row; returns its id. */
    addRun(run: {
      routineId: string;
      conversationId?: string | null;
      status: RunStatus;
      dueAt: number | null;
      startedAt?: number | null;
      endedAt?: number | null;
      detail?: string | null;
    }): number {
      const info = insertRun.run(
        run.routineId,
        run.conversationId ?? null,
        run.status,
        run.dueAt,
        run.startedAt ?? null,
        run.endedAt ?? null,
        run.detail ?? null,
      );
      return Number(info.lastInsertRowid);
    },
    run: (id: number): RoutineRun | null => {
      const row = runById.get(id);
      return row ? toRun(row) : null;
    },
    runs: (routineId: string, limit: number): RoutineRun[] => runsOf.all(routineId, limit).map(toRun),
    allRuns: (): RoutineRun[] => allRuns.all().map(toRun),
    startRun: (id: number, conversationId: string | null, at: number): void =>
      void startRun.run(conversationId, at, id),
    endRun: (id: number, status: RunStatus, at: number, detail: string | null): void =>
      void endRun.run(status, at, detail, id),
    leftover: (status: RunStatus): RoutineRun[] => leftover.all(status).map(toRun),
    /** The routine whose run this conversation is, with the tools it may use without asking. */
    routineOfConversation(conversationId: string): { routineId: string; tools: RoutineTool[] } | null {
      const row = runOfConversation.get(conversationId);
      return row ? { routineId: row.routine_id, tools: JSON.parse(row.tools) as RoutineTool[] } : null;
    },
  };
}

export type RoutineStore = ReturnType<typeof createRoutineStore>;
