// Autopilot: after each finished turn of a conversation's own agent, decide whether to
// carry on with the task list by itself. The current task is checked by the assessor;
// when it is done, it is completed, the next available task is started and the
// conversation continues with an automatic "next task" message (kind `next_task`). It waits while
// a worker runs the current task, pauses at the step cap or on any doubt, and gives way
// at once to the user (Stop, a message of their own, switching it off).
import type { AutopilotState } from '../../../shared/agents';
import type { Message } from '../../../shared/domain';
import type { Plumbing } from '../../../shared/messageKinds';
import type { Settings } from '../../../shared/settings';
import type { Task } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import { AppError, notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import { DisposableStore, type Disposable, type Event } from '../../../shared/event';
import type { ClientOptions } from '../llm/openaiClient';
import type { Connection } from '../llm/connection';
import type { Op, TaskService } from '../tasks/taskService';
import { assess } from './assessor';
import { lastTurn } from './assessorPrompt';
import { createAutopilotStore } from './autopilotStore';
import { advanceOp, ASSESSOR, currentTask, hasOpenWork, isDelegatedByOwner, type Advanced } from './taskProgress';
import { IDLE_STEPS_TO_PAUSE, madeProgress, nextIdle, noProgressReason, statusKey, type Idle } from './stepProgress';
import type { HandlersFor } from '../../../shared/contract';
import type { autopilotCalls } from '../../../shared/autopilotContract';

export interface AutopilotDeps {
  db: Db;
  bus: EventBus;
  chat: {
    onTurnEnd(
      phase: 'autopilot',
      hook: (conversationId: string, info: { agentId: string; outcome: string }) => void | Promise<void>,
      store: DisposableStore,
    ): Disposable;
    post(conversationId: string, plumbing: Plumbing): Message;
    isRunning(conversationId: string): boolean;
  };
  tasks: Pick<TaskService, 'get' | 'change'>;
  messages: { all(conversationId: string): Message[] };
  settings: { effective(): Settings };
  /** The assessor's connection: its own model from Settings, or the conversation's. */
  assessorConnection(conversationId: string): Connection;
  /** Timeouts and the (redacting) log of the assessor's requests. */
  client: ClientOptions;
  /** Whether a worker runs this task right now: Autopilot waits for it instead of assessing. */
  isTaskDelegated?: (conversationId: string, task: Task) => boolean;
  /** A plan waits for the user's approval: Autopilot holds, it never approves (plan review). */
  holds?: (conversationId: string) => boolean;
  /** Approved plans: "Approve and run on Autopilot" switches Autopilot on (plan review). */
  onPlanApproved?: Event<{ conversationId: string; autopilot: boolean }>;
}

type PauseKind = 'cap' | 'not-done' | 'failed' | 'no-progress';

interface Live {
  /** Bumped by everything that cancels a pending check or continuation. */
  generation: number;
  /** Steps count automatic messages after this message id (moved by Continue). */
  countFrom: number;
  paused: { kind: PauseKind; reason: string } | null;
  checking: AbortController | null;
  /** The task title of the step running now (its `next_task` turn), or null. */
  continuing: string | null;
  lastPushed: string | null;
  /** The running step's task and the list's statuses when it began (stepProgress.ts). */
  step: { task: { id: number; title: string }; statuses: string } | null;
  /** Steps in a row on one task that made no tool call and changed no status (stepProgress.ts). */
  idle: Idle | null;
}

export function createAutopilot(deps: AutopilotDeps) {
  const { bus, chat, tasks, settings } = deps;
  const store = createAutopilotStore(deps.db);
  const isTaskDelegated = deps.isTaskDelegated ?? isDelegatedByOwner;
  const log = deps.client.log;
  const lives = new Map<string, Live>();
  let closed = false;
  const disposables = new DisposableStore();

  function live(conversationId: string): Live {
    let entry = lives.get(conversationId);
    if (!entry) {
      entry = {
        generation: 0,
        countFrom: 0,
        paused: null,
        checking: null,
        continuing: null,
        lastPushed: null,
        step: null,
        idle: null,
      };
      lives.set(conversationId, entry);
    }
    return entry;
  }

  const cap = () => settings.effective().autopilotCap;

  function enabled(conversationId: string): boolean {
    const toggle = store.toggle(conversationId);
    if (toggle === undefined) return false;
    return toggle ?? settings.effective().autopilotDefault;
  }

  function steps(conversationId: string): number {
    return store.steps(conversationId, lives.get(conversationId)?.countFrom ?? 0);
  }

  function state(conversationId: string): AutopilotState {
    const toggle = store.toggle(conversationId);
    if (toggle === undefined) throw notFound(`Conversation ${conversationId}`);
    return {
      conversationId,
      enabled: toggle ?? settings.effective().autopilotDefault,
      steps: steps(conversationId),
      cap: cap(),
      pausedReason: lives.get(conversationId)?.paused?.reason ?? null,
      checking: !!lives.get(conversationId)?.checking,
      continuing: lives.get(conversationId)?.continuing ?? null,
    };
  }

  /** Pushes `autopilot:state` when it differs from what was pushed last. */
  function push(conversationId: string): void {
    if (closed || store.toggle(conversationId) === undefined) return;
    const next = state(conversationId);
    const entry = live(conversationId);
    const text = JSON.stringify(next);
    if (text === entry.lastPushed) return;
    entry.lastPushed = text;
    bus.emit('autopilot:state', next);
  }

  /** Drops a pending check or continuation. */
  function cancel(conversationId: string): void {
    const entry = lives.get(conversationId);
    if (!entry) return;
    entry.generation++;
    entry.checking?.abort();
    entry.checking = null;
    entry.continuing = null;
    entry.step = null;
  }

  function pause(conversationId: string, kind: PauseKind, reason: string): void {
    live(conversationId).paused = { kind, reason };
    bus.emit('autopilot:paused', { conversationId, reason });
    push(conversationId);
  }

  function continueWith(conversationId: string, task: { id: number; title: string }): void {
    const { title } = task;
    const entry = live(conversationId);
    entry.continuing = title;
    entry.step = { task: { id: task.id, title }, statuses: statusKey(tasks.get(conversationId)) };
    bus.emit('autopilot:continuing', { conversationId, next: title });
    try {
      chat.post(conversationId, { kind: 'next_task', task: title });
    } catch (error) {
      // Deleted or shutting down: nothing left to continue.
      entry.continuing = null;
      entry.step = null;
      log(`[stepwise] autopilot could not continue: ${error instanceof Error ? error.message : String(error)}`);
    }
    push(conversationId);
  }

  /** Completes/starts tasks as `op` says, then continues with the task it started. */
  function proceed(conversationId: string, op: Op<Advanced>): void {
    if (chat.isRunning(conversationId)) return push(conversationId);
    const changed = tasks.change(conversationId, ASSESSOR, op);
    if (!changed.ok) return pause(conversationId, 'failed', `Autopilot paused: ${sentence(changed.error)}`);
    const next = changed.value.value.next;
    if (next) continueWith(conversationId, next);
    else push(conversationId);
  }

  /**
   * One decision after a finished turn (or Continue). `resumeCurrent`: the user chose to
   * go on after a "not done" verdict, so the model continues with the current task.
   */
  async function advance(conversationId: string, options: { resumeCurrent?: boolean } = {}): Promise<void> {
    if (closed || !enabled(conversationId) || chat.isRunning(conversationId)) return push(conversationId);
    const entry = live(conversationId);
    if (entry.checking) return push(conversationId);
    const generation = entry.generation;
    entry.paused = null;
    const list = tasks.get(conversationId);
    if (!list || !hasOpenWork(list) || deps.holds?.(conversationId)) return push(conversationId);
    const delegated = new Set(list.tasks.filter((t) => isTaskDelegated(conversationId, t)).map((t) => t.id));
    const current = currentTask(list);
    // A worker's result resumes the main agent; the end of that turn brings us back here.
    if (current ? delegated.has(current.id) : delegated.size > 0) return push(conversationId);
    if (steps(conversationId) >= cap()) return pause(conversationId, 'cap', `Autopilot paused after ${cap()} steps`);
    if (!current) return proceed(conversationId, advanceOp(null, delegated));
    if (options.resumeCurrent) return continueWith(conversationId, current);

    const controller = new AbortController();
    entry.checking = controller;
    push(conversationId);
    let result: Awaited<ReturnType<typeof assess>>;
    try {
      let connection: Connection;
      try {
        connection = deps.assessorConnection(conversationId);
      } catch (error) {
        return pause(
          conversationId,
          'failed',
          `Autopilot paused: ${sentence(error instanceof Error ? error.message : String(error))}`,
        );
      }
      result = await assess({
        connection,
        task: current,
        turn: lastTurn(deps.messages.all(conversationId)),
        signal: controller.signal,
        client: deps.client,
      });
    } finally {
      // Each way on below pushes the state once, so "checking" turns straight into
      // "Continuing: …" or a pause, with no empty state between them.
      if (entry.checking === controller) entry.checking = null;
    }
    if (closed || controller.signal.aborted || entry.generation !== generation || !enabled(conversationId)) {
      return push(conversationId);
    }
    if (!result.ok) return pause(conversationId, 'failed', `Autopilot paused: ${sentence(result.problem)}`);
    if (!result.verdict.done) {
      const why = result.verdict.reason ? ` — ${sentence(result.verdict.reason)}` : '.';
      return pause(
        conversationId,
        'not-done',
        `Autopilot paused: task ${current.id} “${current.title}” is not done${why}`,
      );
    }
    proceed(conversationId, advanceOp({ id: current.id, title: current.title }, delegated));
  }

  function start(conversationId: string, options?: { resumeCurrent?: boolean }): void {
    void advance(conversationId, options).catch((error: unknown) => {
      log(`[stepwise] autopilot failed: ${error instanceof Error ? error.message : String(error)}`);
      const entry = lives.get(conversationId);
      if (entry) entry.checking = null;
      push(conversationId);
    });
  }

  chat.onTurnEnd(
    'autopilot',
    (conversationId, info) => {
      // Workers' turns run in child conversations under their own agent ids.
      if (info.agentId !== 'main') return;
      // The step that was continuing is over, however it ended; what follows is decided now.
      const entry = lives.get(conversationId);
      if (entry) entry.continuing = null;
      if (info.outcome !== 'complete') return push(conversationId);
      const step = entry?.step;
      if (entry && step) {
        entry.step = null;
        const progressed = madeProgress(step.statuses, tasks.get(conversationId), deps.messages.all(conversationId));
        entry.idle = nextIdle(entry.idle, step.task.id, progressed);
        if (entry.idle && entry.idle.count >= IDLE_STEPS_TO_PAUSE && enabled(conversationId)) {
          entry.idle = null;
          return pause(conversationId, 'no-progress', noProgressReason(step.task));
        }
      }
      start(conversationId);
    },
    disposables,
  );

  bus.on(
    'messages:changed',
    ({ conversationId, message }) => {
      // The user takes over: the pending continuation goes, the step count restarts.
      if (message.role === 'user' && message.origin === 'user') {
        cancel(conversationId);
        const entry = lives.get(conversationId);
        if (entry) {
          entry.paused = null;
          entry.idle = null;
        }
        push(conversationId);
      }
    },
    disposables,
  );
  bus.on(
    'conversations:changed',
    (change) => {
      if (change.kind === 'deleted') {
        cancel(change.id);
        lives.delete(change.id);
      }
    },
    disposables,
  );
  bus.on(
    'settings:changed',
    () => {
      for (const conversationId of lives.keys()) push(conversationId);
    },
    disposables,
  );

  /** Switches Autopilot on or off for a conversation (the toggle, "Approve and run on Autopilot"). */
  function setEnabled(conversationId: string, on: boolean): AutopilotState {
    if (!store.setToggle(conversationId, on)) throw notFound(`Conversation ${conversationId}`);
    if (!on) cancel(conversationId);
    live(conversationId).paused = null;
    push(conversationId);
    return state(conversationId);
  }
  deps.onPlanApproved?.(({ conversationId, autopilot }) => {
    if (autopilot) setEnabled(conversationId, true);
  }, disposables);

  const handlers: HandlersFor<typeof autopilotCalls> = {
    'autopilot:get': ({ conversationId }) => state(conversationId),
    'autopilot:set': ({ conversationId, enabled: on }) => setEnabled(conversationId, on),
    'autopilot:continue': ({ conversationId }) => {
      if (!state(conversationId).enabled) {
        throw new AppError('conflict', 'Autopilot is off in this conversation. Turn it on first.');
      }
      const entry = live(conversationId);
      // After "not done" or "no progress" the user chose to go on with the same task.
      const resumeCurrent = entry.paused?.kind === 'not-done' || entry.paused?.kind === 'no-progress';
      entry.countFrom = store.lastMessageId(conversationId);
      entry.paused = null;
      push(conversationId);
      start(conversationId, { resumeCurrent });
      return state(conversationId);
    },
  };

  return {
    state,
    handlers,
    setEnabled,
    /** The user's Stop: a pending check or continuation is dropped at once. */
    stop(conversationId: string): void {
      cancel(conversationId);
    },
    dispose(): void {
      closed = true;
      for (const conversationId of lives.keys()) cancel(conversationId);
      disposables.dispose();
    },
  };
}

export type Autopilot = ReturnType<typeof createAutopilot>;

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
