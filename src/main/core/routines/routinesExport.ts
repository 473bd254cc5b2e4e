// Routines out and in: `stepwise.routines` JSON (every routine with its run history) and a
// Markdown "Routines" section; an import restores the routines paused, so nothing runs
// before the user has looked at them (docs/export-format.md).
import { randomUUID } from 'node:crypto';
import type { Folder } from '../../../shared/folders';
import { ROUTINES_FORMAT, ROUTINES_VERSION, RoutinesExport, type RoutineExport } from '../../../shared/routinesExport';
import type { Db } from '../db/openDatabase';
import { escapeMarkdownLine, formatUtc } from '../export/markdownText';
import { AppError } from '../ipc/dispatcher';
import { toRoutine, type RoutineStore } from './routineStore';
import { normalized, scheduleErrors } from './schedule';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const ms = (text: string | null) => (text === null ? null : Date.parse(text));

export function routinesJson(store: RoutineStore, folders: Folder[], now: number): RoutinesExport {
  const folderName = new Map(folders.map((f) => [f.id, f.name]));
  return {
    format: ROUTINES_FORMAT,
    version: ROUTINES_VERSION,
    exportedAt: new Date(now).toISOString(),
    routines: store.all().map((row): RoutineExport => {
      const routine = toRoutine(row);
      return {
        name: routine.name,
        instructions: routine.instructions,
        schedule: routine.schedule,
        scheduleText: routine.scheduleText,
        model: routine.model,
        folder: routine.folderId ? (folderName.get(routine.folderId) ?? null) : null,
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
    }),
  };
}

/** The "## Routines" section: each routine, its schedule and settings, and its last runs. */
export function routinesMarkdown(data: RoutinesExport, lastRuns = 10): string {
  const lines = ['## Routines', ''];
  if (data.routines.length === 0) lines.push('No routines.', '');
  for (const r of data.routines) {
    lines.push(`### ${escapeMarkdownLine(r.name)}`, '');
    lines.push(`- Schedule: ${escapeMarkdownLine(r.scheduleText)}${r.paused ? ' (paused)' : ''}`);
    lines.push(
      `- Model: ${r.model ? escapeMarkdownLine(`${r.model.profileId} / ${r.model.model}`) : 'the default model'}`,
    );
    if (r.folder) lines.push(`- Folder: ${escapeMarkdownLine(r.folder)}`);
    lines.push(`- Review plans: ${r.planReview} · Autopilot: ${r.autopilot ? 'on' : 'off'}`);
    lines.push(
      `- When a run was missed: ${r.missed === 'run_once' ? 'run once when Stepwise starts' : 'skip it and note it'}`,
    );
    const tools = r.tools.map((t) => `${t.server}/${t.tool}`).join(', ');
    lines.push(`- Tools without asking: ${tools ? escapeMarkdownLine(tools) : 'none'}`);
    lines.push('', ...r.instructions.split('\n').map((line) => `> ${escapeMarkdownLine(line)}`), '');
    const runs = r.runs.slice(-lastRuns).reverse();
    if (runs.length) {
      lines.push(`Last runs (newest first, ${runs.length} of ${r.runs.length}):`, '');
      for (const run of runs) {
        const at = run.endedAt ?? run.startedAt ?? run.dueAt;
        const detail = run.detail ? ` — ${escapeMarkdownLine(run.detail)}` : '';
        lines.push(`- ${at ? formatUtc(Date.parse(at)) : '—'}: ${run.status}${detail}`);
      }
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Stores every routine of a `stepwise.routines` file, paused, with its run history (runs
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
  const file = RoutinesExport.safeParse(parsed);
  if (!file.success) {
    const issue = file.error.issues[0];
    throw new AppError(
      'invalid_request',
      `This is not a Stepwise routines export (${ROUTINES_FORMAT} version ${ROUTINES_VERSION}): ${issue.path.join('.') || 'the file'} ${issue.message}.`,
    );
  }
  const folderByName = new Map(folders.map((f) => [f.name.toLowerCase(), f.id]));
  db.transaction(() => {
    for (const r of file.data.routines) {
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
  return { imported: file.data.routines.length };
}
