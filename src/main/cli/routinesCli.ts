// `npm run cli -- routines list | runs <name> | run <name>`: routines and their runs read
// from the database (read-only), and a run asked of the running Stepwise.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../core/db/openDatabase';
import { createRoutineStore, toRoutine } from '../core/routines/routineStore';
import { RUN_REQUEST_PREFIX } from '../core/routines/runRequests';
import { LOCK_FILE } from '../core/storage/instanceLock';

export const ROUTINES_USAGE = 'Usage: npm run cli -- routines list | runs <name> | run <name> [--json]';

export class RoutinesCliError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

const when = (at: number | null) => (at === null ? '-' : new Date(at).toISOString().slice(0, 16).replace('T', ' '));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const format = (r: string[]) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ');
  return `${[header, ...rows].map(format).join('\n')}\n`;
}

/** Whether a Stepwise (desktop app or browser host) holds the data directory now. */
export function stepwiseRunning(dataDir: string): boolean {
  const file = path.join(dataDir, LOCK_FILE);
  if (!fs.existsSync(file)) return false;
  let lock: Database.Database | null = null;
  try {
    lock = new Database(file, { timeout: 0, fileMustExist: true });
    // The app holds a write transaction for its whole run: taking one fails while it runs.
    lock.exec('BEGIN IMMEDIATE');
    lock.exec('ROLLBACK');
    return false;
  } catch {
    return true;
  } finally {
    lock?.close();
  }
}

export function routinesCommand(
  args: string[],
  options: { dataDir: string; json: boolean; openDb: () => Db; stdout: (text: string) => void },
): number {
  const [sub, name, ...extra] = args;
  if (extra.length) throw new RoutinesCliError(`Unexpected argument "${extra[0]}".`, true);
  if (sub === 'list') {
    if (name !== undefined) throw new RoutinesCliError(`Unexpected argument "${name}".`, true);
    const routines = createRoutineStore(options.openDb()).all().map(toRoutine);
    if (options.json) options.stdout(`${JSON.stringify(routines, null, 2)}\n`);
    else if (!routines.length) options.stdout('No routines yet.\n');
    else
      options.stdout(
        table(
          ['NAME', 'SCHEDULE', 'NEXT RUN (UTC)', 'LAST RUN (UTC)', 'OUTCOME'],
          routines.map((r) => [
            r.name,
            r.scheduleText,
            r.paused ? 'paused' : when(r.nextRunAt),
            when(r.lastRunAt),
            r.lastOutcome ?? '-',
          ]),
        ),
      );
    return 0;
  }
  if (sub === 'runs' || sub === 'run') {
    if (!name) throw new RoutinesCliError(`Say which routine: routines ${sub} <name>.`, true);
    const store = createRoutineStore(options.openDb());
    const row = store.byName(name);
    if (!row) {
      throw new RoutinesCliError(`No routine named “${name}”. \`npm run cli -- routines list\` shows their names.`);
    }
    if (sub === 'runs') {
      const runs = store.runs(row.id, 500);
      if (options.json) options.stdout(`${JSON.stringify(runs, null, 2)}\n`);
      else if (!runs.length) options.stdout(`“${row.name}” has not run yet.\n`);
      else
        options.stdout(
          table(
            ['DUE (UTC)', 'STARTED (UTC)', 'ENDED (UTC)', 'STATUS', 'DETAIL'],
            runs.map((r) => [when(r.dueAt), when(r.startedAt), when(r.endedAt), r.status, r.detail ?? '']),
          ),
        );
      return 0;
    }
    if (!stepwiseRunning(options.dataDir)) {
      throw new RoutinesCliError('Stepwise is not running. Start the app (or `npm run serve`) and try again.');
    }
    const file = path.join(options.dataDir, `${RUN_REQUEST_PREFIX}${Date.now()}-${randomUUID()}`);
    // Written whole under another name, then renamed: the app never reads half a request.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ name: row.name }), { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, `${file}.json`);
    options.stdout(`Asked Stepwise to start a run of “${row.name}”. Its Activity says when it ends.\n`);
    return 0;
  }
  throw new RoutinesCliError(sub ? `Unknown routines command "${sub}".` : 'Say what to do: list, runs or run.', true);
}
