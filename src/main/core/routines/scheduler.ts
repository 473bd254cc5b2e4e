// When routines run: due runs are queued and at most two go at once; a run due while the
// routine's previous run still goes is skipped; runs that passed while Stepwise was not
// running, or across a clock jump (suspend, a time-zone change), are recorded as missed
// and make at most one catch-up run, never a burst. The last run is stamped when a run
// ends. Time comes from an injected clock, so tests never wait.
import type { RunStatus } from '../../../shared/routinesContract';
import type { Db } from '../db/openDatabase';
import { dueBetween, nextRunAfter } from './schedule';
import { toStored, type RoutineStore, type StoredRoutine } from './routineStore';

export interface Clock {
  now(): number;
  /** Calls `fn` after `ms`; returns the cancel. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const realClock: Clock = {
  now: Date.now,
  setTimer(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return () => clearTimeout(handle);
  },
};

export interface RunEnd {
  status: Extract<RunStatus, 'completed' | 'waiting' | 'failed' | 'stopped'>;
  detail: string | null;
}

/** What a run that did not happen, or ended, tells the Activity inbox. */
export type SchedulerNote =
  | { kind: 'missed' | 'skipped'; routine: StoredRoutine; detail: string }
  | { kind: 'ended'; routine: StoredRoutine; runId: number; conversationId: string | null; end: RunEnd };

export interface SchedulerDeps {
  db: Db;
  store: RoutineStore;
  clock: Clock;
  timeZone?: string;
  /** Starts the run's conversation; resolves with how the run ended (never rejects). */
  launch(routine: StoredRoutine, runId: number): { conversationId: string | null; ended: Promise<RunEnd> };
  note(note: SchedulerNote): void;
  changed(): void;
  /** Runs at once (default 2). */
  concurrency?: number;
}

/** A timer that fires this much after its due time was not late: the clock jumped (or the machine slept). */
export const LATE_MS = 2 * 60_000;
/** The longest the scheduler sleeps, so a jump of the wall clock is seen within a minute. */
const MAX_SLEEP_MS = 60_000;

const when = (at: number) => new Date(at).toLocaleString();

export function createScheduler(deps: SchedulerDeps) {
  const { store, clock } = deps;
  const concurrency = deps.concurrency ?? 2;
  const queue: { runId: number; routineId: string }[] = [];
  /** runId → routineId of the runs going now. */
  const running = new Map<number, string>();
  let cancelTimer: (() => void) | null = null;
  let closed = false;

  const scheduleClock = (routine: StoredRoutine) => ({ timeZone: deps.timeZone, anchor: routine.anchorAt });
  const next = (routine: StoredRoutine, after: number) => nextRunAfter(routine.schedule, after, scheduleClock(routine));

  function active(routineId: string): boolean {
    return queue.some((q) => q.routineId === routineId) || [...running.values()].includes(routineId);
  }

  function enqueue(routine: StoredRoutine, dueAt: number | null): number {
    const runId = store.addRun({ routineId: routine.id, status: 'queued', dueAt });
    queue.push({ runId, routineId: routine.id });
    return runId;
  }

  /** Runs from `from` (exclusive of nothing: `from` itself was due) to now that will not happen on time. */
  function missed(routine: StoredRoutine, from: number, now: number): number | null {
    const span = dueBetween(routine.schedule, from - 1, now, scheduleClock(routine));
    const count = Math.max(span.count, 1);
    const last = span.last ?? from;
    const runs =
      count === 1
        ? `The run due ${when(from)} was missed`
        : `${count} runs due from ${when(from)} to ${when(last)} were missed`;
    const after = routine.missed === 'run_once' ? 'one run makes up for them now.' : 'skipped, as the routine asks.';
    const detail = `${runs} (Stepwise was not running or the computer slept); ${count === 1 ? after.replace('them', 'it') : after}`;
    store.addRun({ routineId: routine.id, status: 'missed', dueAt: last, endedAt: now, detail });
    deps.note({ kind: 'missed', routine, detail });
    return routine.missed === 'run_once' ? last : null;
  }

  function skipped(routine: StoredRoutine, dueAt: number, now: number): void {
    const detail = 'skipped: the previous run was still going';
    store.addRun({ routineId: routine.id, status: 'skipped', dueAt, endedAt: now, detail });
    deps.note({ kind: 'skipped', routine, detail });
  }

  /** Everything due by now: queued, skipped or missed; then each routine's next time. */
  function tick(): void {
    if (closed) return;
    const now = clock.now();
    deps.db.transaction(() => {
      for (const row of store.due(now)) {
        const routine = toStored(row);
        const dueAt = row.next_run_at!;
        if (now - dueAt > LATE_MS) {
          const catchUp = missed(routine, dueAt, now);
          if (catchUp !== null && !active(routine.id)) enqueue(routine, catchUp);
        } else if (active(routine.id)) {
          skipped(routine, dueAt, now);
        } else {
          enqueue(routine, dueAt);
        }
        store.setNext(routine.id, next(routine, now));
      }
    })();
    pump();
    arm();
    deps.changed();
  }

  function pump(): void {
    while (!closed && running.size < concurrency && queue.length) {
      const { runId, routineId } = queue.shift()!;
      const row = store.get(routineId);
      if (!row) continue;
      const routine = toStored(row);
      running.set(runId, routineId);
      let launched: ReturnType<SchedulerDeps['launch']>;
      try {
        launched = deps.launch(routine, runId);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        launched = { conversationId: null, ended: Promise.resolve({ status: 'failed', detail }) };
      }
      store.startRun(runId, launched.conversationId, clock.now());
      const conversationId = launched.conversationId;
      void launched.ended.then((end) => finish(routine, runId, conversationId, end));
    }
  }

  function finish(routine: StoredRoutine, runId: number, conversationId: string | null, end: RunEnd): void {
    running.delete(runId);
    if (closed) return;
    const at = clock.now();
    try {
      deps.db.transaction(() => {
        store.endRun(runId, end.status, at, end.detail);
        // Stamped now, when the run ends: a run cut off before it ends never counts as run.
        if (store.get(routine.id)) store.stampLast(routine.id, at, end.status, end.detail);
      })();
      deps.note({ kind: 'ended', routine, runId, conversationId, end });
    } finally {
      pump();
      deps.changed();
    }
  }

  function arm(): void {
    cancelTimer?.();
    cancelTimer = null;
    if (closed) return;
    const soonest = store.soonest();
    if (soonest === null) return;
    const wait = Math.min(Math.max(soonest - clock.now(), 0), MAX_SLEEP_MS);
    cancelTimer = clock.setTimer(tick, wait);
  }

  return {
    /**
     * At start: runs a previous process left going are interrupted (never retried), queued
     * ones missed; then what came due while Stepwise was not running.
     */
    start(): void {
      const now = clock.now();
      deps.db.transaction(() => {
        for (const run of store.leftover('running')) {
          const detail = 'Stepwise quit or crashed during this run. Open it to continue the remaining tasks.';
          store.endRun(run.id, 'interrupted', now, detail);
          store.stampLast(run.routineId, now, 'interrupted', detail);
        }
        for (const run of store.leftover('queued')) {
          store.endRun(run.id, 'missed', now, 'Stepwise closed before this run could start.');
        }
        for (const row of store.due(now)) {
          const routine = toStored(row);
          const catchUp = missed(routine, row.next_run_at!, now);
          if (catchUp !== null) enqueue(routine, catchUp);
          store.setNext(routine.id, next(routine, now));
        }
      })();
      pump();
      arm();
      deps.changed();
    },
    /** A routine was saved, paused or resumed: when to wake may have changed. */
    rearm: arm,
    tick,
    /** Run now: queued behind the runs going; returns the run's id. */
    runNow(routine: StoredRoutine): number {
      const runId = enqueue(routine, null);
      pump();
      deps.changed();
      return runId;
    },
    nextAfter: next,
    /** A deleted routine's queued runs go; its running run is stopped by the caller. */
    forget(routineId: string): number[] {
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i].routineId === routineId) queue.splice(i, 1);
      return [...running].filter(([, id]) => id === routineId).map(([runId]) => runId);
    },
    runningCount: () => running.size,
    queuedCount: () => queue.length,
    close(): void {
      closed = true;
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
