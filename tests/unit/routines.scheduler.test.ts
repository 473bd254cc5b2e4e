// The routine scheduler against real SQLite with an injected clock (no real waiting):
// due runs, overlap, the queue of two, the last run stamped when a run ends, and missed
// runs at start and across a clock jump under both policies (one catch-up, never a burst).
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import {
  createRoutineStore,
  toStored,
  type RoutineStore,
  type StoredRoutine,
} from '../../src/main/core/routines/routineStore';
import {
  createScheduler,
  type Clock,
  type RunEnd,
  type Scheduler,
  type SchedulerNote,
} from '../../src/main/core/routines/scheduler';
import type { MissedPolicy, RoutineSchedule } from '../../src/shared/routinesContract';
import { tempDirPerTest } from '../support/tempDir';

const dir = tempDirPerTest({ beforeEach, afterEach });
const T0 = Date.parse('2026-03-02T10:00:00Z');
const MIN = 60_000;

/** A clock the test moves; timers fire in order as it passes them, or late when it jumps. */
function manualClock(start: number) {
  let now = start;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  const clock: Clock = {
    now: () => now,
    setTimer(fn, ms) {
      const id = ++ids;
      timers.push({ at: now + ms, fn, id });
      return () => void (timers = timers.filter((t) => t.id !== id));
    },
  };
  return {
    clock,
    /** Moves time on by `ms`, firing each timer at its time. */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const due = timers[0];
        if (!due || due.at > end) break;
        timers.shift();
        now = Math.max(now, due.at);
        due.fn();
      }
      now = end;
    },
    /** The wall clock jumps (suspend, time zone): pending timers fire only afterwards, late. */
    jump(ms: number) {
      now += ms;
      const pending = timers;
      timers = [];
      for (const t of pending) t.fn();
    },
    pending: () => timers.length,
  };
}

function deferred() {
  let resolve!: (end: RunEnd) => void;
  const promise = new Promise<RunEnd>((r) => (resolve = r));
  return { promise, resolve };
}

const flush = () => new Promise((r) => setImmediate(r));

interface Harness {
  db: Db;
  store: RoutineStore;
  scheduler: Scheduler;
  time: ReturnType<typeof manualClock>;
  launched: { routine: StoredRoutine; runId: number; end: ReturnType<typeof deferred> }[];
  notes: SchedulerNote[];
}

let h: Harness | null = null;
afterEach(() => {
  h?.scheduler.close();
  h?.db.close();
  h = null;
});

function harness(start = T0): Harness {
  const db = openDatabase(dir.path).db;
  const store = createRoutineStore(db);
  const time = manualClock(start);
  const launched: Harness['launched'] = [];
  const notes: SchedulerNote[] = [];
  const scheduler = createScheduler({
    db,
    store,
    clock: time.clock,
    timeZone: 'UTC',
    launch(routine, runId) {
      const end = deferred();
      launched.push({ routine, runId, end });
      return { conversationId: null, ended: end.promise };
    },
    note: (note) => notes.push(note),
    changed: () => {},
  });
  h = { db, store, scheduler, time, launched, notes };
  return h;
}

function addRoutine(
  harness: Harness,
  schedule: Partial<RoutineSchedule>,
  options: { missed?: MissedPolicy; anchor?: number; nextRunAt?: number; name?: string } = {},
): string {
  const id = randomUUID();
  const full: RoutineSchedule = { kind: 'minutes', minutes: null, time: null, day: null, cron: null, ...schedule };
  const anchor = options.anchor ?? harness.time.clock.now();
  const routine = {
    id,
    name: options.name ?? `Routine ${id.slice(0, 4)}`,
    instructions: 'Do it.',
    schedule: full,
    model: null,
    folderId: null,
    planReview: 'off' as const,
    autopilot: true,
    tools: [],
    missed: options.missed ?? 'run_once',
    paused: false,
    anchorAt: anchor,
    nextRunAt: null,
    at: anchor,
  };
  harness.store.save({
    ...routine,
    nextRunAt: options.nextRunAt ?? harness.scheduler.nextAfter({ ...routine }, harness.time.clock.now()),
  });
  return id;
}

const runs = (harness: Harness, id: string) => harness.store.runs(id, 1000).reverse();
const statuses = (harness: Harness, id: string) => runs(harness, id).map((r) => r.status);

describe('routine scheduler', () => {
  it('runs each due time once and stamps the last run when the run ends, not when it starts', async () => {
    const t = harness();
    const id = addRoutine(t, { kind: 'minutes', minutes: 5 });
    t.scheduler.start();
    t.time.advance(5 * MIN - 1);
    expect(t.launched).toHaveLength(0);
    t.time.advance(1);
    expect(t.launched).toHaveLength(1);
    expect(runs(t, id)[0]).toMatchObject({ status: 'running', dueAt: T0 + 5 * MIN });
    expect(t.store.get(id)).toMatchObject({ last_run_at: null, next_run_at: T0 + 10 * MIN });

    t.time.advance(2 * MIN);
    t.launched[0].end.resolve({ status: 'completed', detail: null });
    await flush();
    expect(t.store.get(id)).toMatchObject({ last_run_at: T0 + 7 * MIN, last_outcome: 'completed' });
    expect(runs(t, id)[0]).toMatchObject({ status: 'completed', endedAt: T0 + 7 * MIN });
    t.time.advance(3 * MIN);
    expect(t.launched).toHaveLength(2);
  });

  it('records a run due while the previous one still goes as skipped', async () => {
    const t = harness();
    const id = addRoutine(t, { kind: 'minutes', minutes: 1 });
    t.scheduler.start();
    t.time.advance(MIN);
    t.time.advance(MIN);
    t.time.advance(MIN);
    expect(t.launched).toHaveLength(1);
    expect(statuses(t, id)).toEqual(['running', 'skipped', 'skipped']);
    expect(runs(t, id)[1]).toMatchObject({
      detail: 'skipped: the previous run was still going',
      dueAt: T0 + 2 * MIN,
    });
    expect(t.notes.filter((n) => n.kind === 'skipped')).toHaveLength(2);
    t.launched[0].end.resolve({ status: 'waiting', detail: 'an approval for mcp__files__write_file' });
    await flush();
    t.time.advance(MIN);
    expect(t.launched).toHaveLength(2);
    expect(t.store.get(id)).toMatchObject({ last_outcome: 'waiting' });
  });

  it('runs at most two at once; the others queue and start as runs end', async () => {
    const t = harness();
    const ids = [0, 1, 2, 3, 4].map((i) => addRoutine(t, { kind: 'hourly' }, { name: `R${i}` }));
    t.scheduler.start();
    t.time.advance(60 * MIN);
    expect(t.launched).toHaveLength(2);
    expect(t.scheduler.queuedCount()).toBe(3);
    expect(ids.flatMap((id) => statuses(t, id)).sort()).toEqual(['queued', 'queued', 'queued', 'running', 'running']);
    t.launched[0].end.resolve({ status: 'completed', detail: null });
    await flush();
    expect(t.launched).toHaveLength(3);
    expect(t.scheduler.runningCount()).toBe(2);
    for (const run of t.launched.slice(1)) run.end.resolve({ status: 'failed', detail: 'The model failed.' });
    await flush();
    for (const run of t.launched.slice(3)) run.end.resolve({ status: 'completed', detail: null });
    await flush();
    expect(t.launched).toHaveLength(5);
    expect(t.scheduler.runningCount()).toBe(0);
  });

  it('at start, records missed runs with their due time and makes one catch-up run ("Run once when Stepwise starts")', () => {
    const t = harness(T0 + 3 * 60 * MIN + 30 * MIN);
    // Saved at T0, due hourly; Stepwise was closed for three and a half hours.
    const once = addRoutine(t, { kind: 'hourly' }, { anchor: T0, nextRunAt: T0 + 60 * MIN });
    const skip = addRoutine(t, { kind: 'hourly' }, { anchor: T0, nextRunAt: T0 + 60 * MIN, missed: 'skip' });
    t.scheduler.start();
    expect(t.launched.map((l) => l.routine.id)).toEqual([once]);
    expect(runs(t, once).map((r) => [r.status, r.dueAt])).toEqual([
      ['missed', T0 + 3 * 60 * MIN],
      ['running', T0 + 3 * 60 * MIN],
    ]);
    expect(runs(t, once)[0].detail).toContain('3 runs due from');
    expect(runs(t, skip).map((r) => r.status)).toEqual(['missed']);
    expect(runs(t, skip)[0].detail).toContain('skipped, as the routine asks');
    expect(t.store.get(once)!.next_run_at).toBe(T0 + 4 * 60 * MIN);
    expect(t.notes.filter((n) => n.kind === 'missed')).toHaveLength(2);
  });

  it('a clock jump counts as missed runs, never a burst', () => {
    const t = harness();
    const once = addRoutine(t, { kind: 'minutes', minutes: 1 });
    const skip = addRoutine(t, { kind: 'minutes', minutes: 1 }, { missed: 'skip' });
    t.scheduler.start();
    // Asleep for five hours: 300 due times of each routine passed.
    t.time.jump(5 * 60 * MIN);
    expect(t.launched.map((l) => l.routine.id)).toEqual([once]);
    expect(runs(t, once)[0]).toMatchObject({ status: 'missed' });
    expect(runs(t, once)[0].detail).toContain('300 runs due');
    expect(statuses(t, skip)).toEqual(['missed']);
    expect(t.store.get(once)!.next_run_at).toBe(T0 + 301 * MIN);
  });

  it('leaves no run of a previous process going: running ones are interrupted (never retried), queued ones missed', () => {
    const t = harness();
    const id = addRoutine(t, { kind: 'daily', time: '23:00' });
    t.store.addRun({ routineId: id, status: 'running', dueAt: T0 - MIN, startedAt: T0 - MIN });
    t.store.addRun({ routineId: id, status: 'queued', dueAt: T0 - MIN });
    t.scheduler.start();
    expect(statuses(t, id)).toEqual(['interrupted', 'missed']);
    expect(t.launched).toHaveLength(0);
    expect(t.store.get(id)).toMatchObject({ last_outcome: 'interrupted', last_run_at: T0 });
  });

  it('500 routines due in the same minute queue and run two at a time, each once', async () => {
    const t = harness();
    const ids = Array.from({ length: 500 }, (_, i) => addRoutine(t, { kind: 'hourly' }, { name: `R${i}` }));
    t.scheduler.start();
    t.time.advance(60 * MIN);
    expect(t.scheduler.runningCount()).toBe(2);
    expect(t.scheduler.queuedCount()).toBe(498);
    let most = 0;
    for (let done = 0; done < 500; done++) {
      most = Math.max(most, t.scheduler.runningCount());
      t.launched[done].end.resolve({ status: 'completed', detail: null });
      await flush();
    }
    expect(most).toBe(2);
    expect(t.launched).toHaveLength(500);
    expect(new Set(t.launched.map((l) => l.routine.id)).size).toBe(500);
    expect(ids.every((id) => statuses(t, id).join() === 'completed')).toBe(true);
  });

  it('Run now queues behind two running runs', async () => {
    const t = harness();
    const a = addRoutine(t, { kind: 'daily', time: '23:00' });
    const b = addRoutine(t, { kind: 'daily', time: '23:00' });
    t.scheduler.start();
    t.scheduler.runNow(toStoredOf(t, a));
    t.scheduler.runNow(toStoredOf(t, b));
    t.scheduler.runNow(toStoredOf(t, a));
    expect(t.launched).toHaveLength(2);
    expect(statuses(t, a)).toEqual(['running', 'queued']);
    t.launched[1].end.resolve({ status: 'stopped', detail: null });
    await flush();
    expect(t.launched).toHaveLength(3);
    expect(statuses(t, b)).toEqual(['stopped']);
  });
});

function toStoredOf(t: Harness, id: string): StoredRoutine {
  return toStored(t.store.get(id)!);
}
