// Read-only access to routines and their runs for exports (SELECTs only): every routine
// with its run history, shaped as in a `stepwise.routines` file.
import type { RoutineExport } from '../../../shared/routinesExport';
import type { Db } from '../db/openDatabase';
import { createRoutineStore, toRoutine } from './routineStore';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Every routine, oldest run first; `folderName` names a folder by id (null: gone). */
export function readRoutines(db: Db, folderName: (folderId: string) => string | null): RoutineExport[] {
  const store = createRoutineStore(db);
  return store.all().map((row): RoutineExport => {
    const routine = toRoutine(row);
    return {
      name: routine.name,
      instructions: routine.instructions,
      schedule: routine.schedule,
      scheduleText: routine.scheduleText,
      model: routine.model,
      folder: routine.folderId ? folderName(routine.folderId) : null,
      planReview: routine.planReview,
      autopilot: routine.autopilot,
      tools: routine.tools,
      missed: routine.missed,
      paused: routine.paused,
      createdAt: new Date(routine.createdAt).toISOString(),
      lastRunAt: iso(routine.lastRunAt),
      lastOutcome: routine.lastOutcome,
      runs: store
        .runs(routine.id, 100_000)
        .reverse()
        .map((run) => ({
          status: run.status,
          dueAt: iso(run.dueAt),
          startedAt: iso(run.startedAt),
          endedAt: iso(run.endedAt),
          detail: run.detail,
          conversationId: run.conversationId,
        })),
    };
  });
}
