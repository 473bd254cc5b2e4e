// Routines: runs that happen on a schedule and work through their task list unattended,
// and the Activity inbox that says when they (or any conversation in the background)
// finish or need the user (docs/routines.md). Composes the store, the scheduler, the run
// launcher and Activity; other modules come in as typed services.
import { randomUUID } from 'node:crypto';
import type { Routine, RoutineFieldError, RoutineInput, RoutineRun } from '../../../shared/routinesContract';
import type { Db } from '../db/openDatabase';
import { AppError, notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import { DisposableStore } from '../../../shared/event';
import { createActivity, kindOfEnd } from './activity';
import { createRoutineStore, toRoutine, toStored, type RoutineStore, type StoredRoutine } from './routineStore';
import { createRunLauncher, MODEL_GONE, type LauncherDeps } from './runLauncher';
import type { RunState } from './runOutcome';
import { normalized, scheduleErrors } from './schedule';
import { watchRunRequests } from './runRequests';
import { importRoutines, routinesJson, routinesMarkdown } from './routinesExport';
import { formatUtc } from '../../../shared/markdownText';
import { createScheduler, realClock, type Clock, type SchedulerNote } from './scheduler';
import { createSettleWatcher, type SettleDeps } from './settleWatcher';
import type { HandlersFor } from '../../../shared/contract';
import type { routineCalls } from '../../../shared/routinesContract';

export interface RoutinesDeps extends Omit<LauncherDeps, 'watcher' | 'bus' | 'db' | 'now'> {
  db: Db;
  bus: EventBus;
  clock?: Clock;
  /** IANA zone for schedules (tests); absent: the machine's own. */
  timeZone?: string;
  state: RunState;
  onTurnEnd: SettleDeps['onTurnEnd'];
  approvals: {
    grantInAdvance(granted: (request: { conversationId: string; server: string; tool: string }) => boolean): () => void;
  };
  /** The user's Stop for a conversation (a deleted routine's run). */
  stop(conversationId: string): Promise<unknown>;
  conversationTitle(conversationId: string): string | null;
  /** Runs at once (default 2). */
  concurrency?: number;
  /** Start the scheduler now (default); false leaves it to `start()`. */
  autoStart?: boolean;
  /** The data directory, where the command line leaves its run requests (runRequests.ts); absent: none are read. */
  requestsDir?: string;
  log?: (line: string) => void;
}

function fieldErrors(input: RoutineInput, deps: Pick<RoutinesDeps, 'profileIds' | 'folders'>): RoutineFieldError[] {
  const errors: RoutineFieldError[] = [];
  if (!input.name.trim()) errors.push({ field: 'name', message: 'Give the routine a name.' });
  if (!input.instructions.trim()) {
    errors.push({ field: 'instructions', message: 'Write the message each run starts with.' });
  }
  errors.push(...scheduleErrors(input.schedule));
  if (input.model && !deps.profileIds().includes(input.model.profileId)) {
    errors.push({ field: 'model', message: 'That provider profile is not set up. Choose another model.' });
  }
  if (input.folderId && !deps.folders.list().some((f) => f.id === input.folderId)) {
    errors.push({ field: 'folder', message: 'That folder no longer exists. Choose another folder.' });
  }
  return errors;
}

export function createRoutines(deps: RoutinesDeps) {
  const { db, bus } = deps;
  const clock = deps.clock ?? realClock;
  const now = () => clock.now();
  const store: RoutineStore = createRoutineStore(db);
  const disposables = new DisposableStore();
  const watcher = createSettleWatcher({ bus, state: deps.state, onTurnEnd: deps.onTurnEnd, disposables });
  /** conversationId → runId of the runs going now. */
  const live = new Map<string, number>();
  const activity = createActivity({
    db,
    bus,
    now,
    watcher,
    disposables,
    title: deps.conversationTitle,
    isRun: (id) => live.has(id),
    running: (id) => deps.state.chat.isRunning(id),
  });

  const list = (): Routine[] => store.all().map(toRoutine);
  const changed = () => bus.emit('routines:changed', { routines: list() });

  const launch = createRunLauncher({ ...deps, db, bus, now, watcher });

  function note(n: SchedulerNote): void {
    if (n.kind !== 'ended') {
      activity.add({
        kind: n.kind,
        conversationId: null,
        routineId: n.routine.id,
        title: n.routine.name,
        detail: n.detail,
      });
      return;
    }
    if (n.conversationId) live.delete(n.conversationId);
    if (n.end.detail === MODEL_GONE) pause(n.routine.id, true);
    const kind = kindOfEnd(n.end);
    const detail = n.end.detail ?? '';
    const title = (n.conversationId && deps.conversationTitle(n.conversationId)) || n.routine.name;
    if (n.conversationId) activity.told(n.conversationId, kind, detail);
    // A run of a routine deleted meanwhile was stopped with it: kept as a conversation, not news.
    if (kind === 'stopped' && !store.get(n.routine.id)) return;
    activity.add({ kind, conversationId: n.conversationId, routineId: n.routine.id, title, detail });
  }

  const scheduler = createScheduler({
    db,
    store,
    clock,
    timeZone: deps.timeZone,
    concurrency: deps.concurrency,
    launch(routine, runId) {
      const launched = launch(routine, runId);
      if (launched.conversationId) live.set(launched.conversationId, runId);
      return launched;
    },
    note,
    changed,
  });

  // The tools ticked in a routine run without a prompt, in its runs only.
  const ungrant = deps.approvals.grantInAdvance((request) => {
    const run = store.routineOfConversation(request.conversationId);
    return !!run && run.tools.some((t) => t.server === request.server && t.tool === request.tool);
  });

  function mustGet(id: string): StoredRoutine {
    const row = store.get(id);
    if (!row) throw notFound('That routine (it was deleted)');
    return toStored(row);
  }

  function pause(id: string, paused: boolean): void {
    const routine = mustGet(id);
    const at = now();
    // Resumed: counted from now, so the paused time makes no missed runs.
    const anchor = paused ? routine.anchorAt : at;
    const next = paused ? null : scheduler.nextAfter({ ...routine, anchorAt: anchor }, at);
    store.setPaused(id, paused, next, anchor);
    scheduler.rearm();
    changed();
  }

  function byName(name: string): StoredRoutine {
    const row = store.byName(name.trim());
    if (!row) throw notFound(`A routine named “${name}”`);
    return toStored(row);
  }

  const handlers: HandlersFor<typeof routineCalls> = {
    'routines:list': () => list(),
    'routines:save': ({ id, routine: input }) => {
      const errors = fieldErrors(input, deps);
      if (errors.length) return { ok: false, errors };
      const existing = id ? store.get(id) : undefined;
      if (id && !existing) throw notFound('That routine (it was deleted)');
      const at = now();
      const schedule = normalized(input.schedule);
      const paused = existing ? existing.paused === 1 : false;
      const draft = {
        id: id ?? randomUUID(),
        name: input.name.trim(),
        instructions: input.instructions,
        schedule,
        model: input.model,
        folderId: input.folderId,
        planReview: input.planReview,
        autopilot: input.autopilot,
        tools: input.tools,
        missed: input.missed,
        paused,
        anchorAt: at,
        nextRunAt: null as number | null,
        at,
      };
      if (!paused) draft.nextRunAt = scheduler.nextAfter(draft, at);
      store.save(draft);
      scheduler.rearm();
      changed();
      return { ok: true, routine: toRoutine(store.get(draft.id)!) };
    },
    'routines:delete': async ({ id }) => {
      mustGet(id);
      const going = scheduler.forget(id).flatMap((runId) => store.run(runId)?.conversationId ?? []);
      store.remove(id);
      scheduler.rearm();
      changed();
      // Its run goes no further, and stays as a conversation.
      await Promise.all(going.map((conversationId) => deps.stop(conversationId)));
      return { id };
    },
    'routines:setPaused': ({ id, paused }) => {
      pause(id, paused);
      return toRoutine(store.get(id)!);
    },
    'routines:runNow': ({ id }) => runNow(mustGet(id)),
    'routines:runs': ({ id, limit }) => {
      mustGet(id);
      return store.runs(id, limit);
    },
    'routines:export': ({ format }) => {
      const at = now();
      const data = routinesJson(db, deps.folders.list(), at);
      const stamp = new Date(at).toISOString().slice(0, 10);
      return format === 'json'
        ? {
            kind: 'download',
            filename: `stepwise-routines-${stamp}.json`,
            mimeType: 'application/json',
            text: `${JSON.stringify(data, null, 2)}\n`,
          }
        : {
            kind: 'download',
            filename: `stepwise-routines-${stamp}.md`,
            mimeType: 'text/markdown',
            text: `# Stepwise routines\n\nExported ${formatUtc(at)}\n\n${routinesMarkdown(data)}`,
          };
    },
    'routines:import': ({ text }) => {
      const result = importRoutines(db, store, text, deps.folders.list(), now());
      changed();
      return result;
    },
  };

  function runNow(routine: StoredRoutine): RoutineRun {
    const runId = scheduler.runNow(routine);
    const run = store.run(runId);
    if (!run) throw new AppError('internal', 'The run could not be recorded.');
    return run;
  }

  if (deps.autoStart !== false) scheduler.start();
  const log = deps.log ?? console.error;
  const unwatch = deps.requestsDir
    ? watchRunRequests(deps.requestsDir, (name) => void runNow(byName(name)), log)
    : () => undefined;

  return {
    handlers: { ...handlers, ...activity.handlers },
    list,
    /** Starts the scheduler (when built with `autoStart: false`). */
    start: () => scheduler.start(),
    tick: () => scheduler.tick(),
    runs: (id: string, limit = 50) => store.runs(id, limit),
    allRuns: () => store.allRuns(),
    /** The CLI's `routines run <name>`: a run of the routine of that name, in this process. */
    runByName: (name: string) => runNow(byName(name)),
    byName,
    activity,
    runningCount: () => scheduler.runningCount(),
    queuedCount: () => scheduler.queuedCount(),
    dispose(): void {
      scheduler.close();
      unwatch();
      ungrant();
      disposables.dispose();
    },
  };
}

export type Routines = ReturnType<typeof createRoutines>;
