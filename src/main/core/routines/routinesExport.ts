// Routines out and in: `stepwise.routines` JSON (every routine with its run history) and a
// Markdown "Routines" section; an import restores the routines paused, so nothing runs
// before the user has looked at them (docs/export-format.md).
import { randomUUID } from 'node:crypto';
import type { Folder } from '../../../shared/folders';
import { ROUTINES_FORMAT, ROUTINES_VERSION, RoutinesExport, type RoutineExport } from '../../../shared/routinesExport';
import { TASKS_FORMAT, TASKS_VERSION, TasksExport } from '../../../shared/exportFormat';
import type { Db } from '../db/openDatabase';
import { routinesMarkdown } from '../../../shared/routinesMarkdown';
import { AppError } from '../ipc/dispatcher';
import type { RoutineStore } from './routineStore';
import { readRoutines } from './routinesReader';
import { normalized, scheduleErrors } from './schedule';

export function routinesJson(db: Db, folders: Folder[], now: number): RoutinesExport {
  const folderName = new Map(folders.map((f) => [f.id, f.name]));
  return {
    format: ROUTINES_FORMAT,
    version: ROUTINES_VERSION,
    exportedAt: new Date(now).toISOString(),
    routines: readRoutines(db, (id) => folderName.get(id) ?? null),
  };
}

export { routinesMarkdown };

const ms = (text: string | null) => (text === null ? null : Date.parse(text));

/** The routines of an export of every task list (`stepwise.tasks` with `routines`). */
function tasksFileRoutines(parsed: unknown): RoutineExport[] {
  const file = TasksExport.safeParse(parsed);
  if (!file.success) {
    const issue = file.error.issues[0];
    throw new AppError(
      'invalid_request',
      `This is not a Stepwise task export (${TASKS_FORMAT} version ${TASKS_VERSION}): ${issue.path.join('.') || 'the file'} ${issue.message}.`,
    );
  }
  if (!file.data.routines)
    throw new AppError(
      'invalid_request',
      'This task export holds no routines: only “Export all task lists…” as JSON carries them. Nothing was imported.',
    );
  return file.data.routines;
}

/**
 * Stores every routine of a `stepwise.routines` file (or of an export of every task list,
 * which carries the same routines), paused, with its run history (runs
 * keep no link to conversations of another Stepwise). One transaction: all or nothing.
 */
export function importRoutines(
  db: Db,
  store: RoutineStore,
  text: string,
  folders: Folder[],
  now: number,
): { imported: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'This file is not JSON, so it is not a Stepwise routines export.');
  }
  const routines = isTasksFile(parsed) ? tasksFileRoutines(parsed) : routinesOf(parsed);
  const folderByName = new Map(folders.map((f) => [f.name.toLowerCase(), f.id]));
  db.transaction(() => {
    for (const r of routines) {
      const problems = scheduleErrors(r.schedule);
      if (problems.length) throw new AppError('invalid_request', `Routine “${r.name}”: ${problems[0].message}`);
      const id = randomUUID();
      store.save({
        id,
        name: r.name,
        instructions: r.instructions,
        schedule: normalized(r.schedule),
        model: r.model,
        folderId: r.folder ? (folderByName.get(r.folder.toLowerCase()) ?? null) : null,
        planReview: r.planReview,
        autopilot: r.autopilot,
        tools: r.tools,
        missed: r.missed,
        paused: true,
        anchorAt: now,
        nextRunAt: null,
        at: now,
      });
      for (const run of r.runs) {
        store.addRun({
          routineId: id,
          status: run.status === 'running' || run.status === 'queued' ? 'interrupted' : run.status,
          dueAt: ms(run.dueAt),
          startedAt: ms(run.startedAt),
          endedAt: ms(run.endedAt),
          detail: run.detail,
        });
      }
      if (r.lastRunAt && r.lastOutcome) store.stampLast(id, Date.parse(r.lastRunAt), r.lastOutcome, null);
    }
  })();
  return { imported: routines.length };
}

function isTasksFile(parsed: unknown): boolean {
  return typeof parsed === 'object' && parsed !== null && (parsed as { format?: unknown }).format === TASKS_FORMAT;
}

function routinesOf(parsed: unknown): RoutineExport[] {
  const file = RoutinesExport.safeParse(parsed);
  if (!file.success) {
    const issue = file.error.issues[0];
    throw new AppError(
      'invalid_request',
      `This is not a Stepwise routines export (${ROUTINES_FORMAT} version ${ROUTINES_VERSION}): ${issue.path.join('.') || 'the file'} ${issue.message}.`,
    );
  }
  return file.data.routines;
}
