// Task lists that outlive Stop and restarts. A conversation whose agent stopped with
// tasks left, or whose agents were cut off by a quit or a crash, says so in the task
// header ("Stopped · 3 of 5 tasks left" after Stop, "Paused · …" when a turn simply ended
// with tasks open, "Interrupted · …") and offers "Continue remaining
// tasks", which sends the agent on at the current task through a quiet `continue`
// message (plumbing like Autopilot's next task). Nothing resumes by itself.
import type { Continuity, ContinuityKind } from '../../../shared/continuityContract';
import type { Message } from '../../../shared/domain';
import type { Plumbing } from '../../../shared/messageKinds';
import type { TaskList } from '../../../shared/tasks';
import { currentTask } from '../../../shared/taskProgress';
import type { Db } from '../db/openDatabase';
import { AppError } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import { DisposableStore, type Disposable } from '../../../shared/event';
import { isOpen } from '../tasks/taskRules';
import { createContinuityStore, type ContinuityState } from './continuityStore';
import type { HandlersFor } from '../../../shared/contract';
import type { continuityCalls } from '../../../shared/continuityContract';

export interface ContinuityDeps {
  db: Db;
  bus: EventBus;
  now?: () => number;
  chat: {
    onTurnEnd(
      phase: 'continuity',
      hook: (conversationId: string, info: { agentId: string; outcome: string }) => void,
      store: DisposableStore,
    ): Disposable;
    post(conversationId: string, plumbing: Plumbing): Message;
    isRunning(conversationId: string): boolean;
  };
  tasks: { get(conversationId: string): TaskList | null };
  /** Whether Autopilot carries the conversation on by itself after a finished turn. */
  autopilotOn(conversationId: string): boolean;
}

const kindOf = (state: ContinuityState | null): ContinuityKind | null => (state === 'running' ? null : state);

/** The task the agent goes on with: the one in progress, else the first one still open. */
export function resumeTask(list: TaskList | null) {
  if (!list) return null;
  return currentTask(list) ?? list.tasks.find((t) => isOpen(t.status)) ?? null;
}

export function createContinuity(deps: ContinuityDeps) {
  const { bus, chat } = deps;
  const now = deps.now ?? Date.now;
  const store = createContinuityStore(deps.db);
  store.markCutOff(now());
  let closed = false;
  const disposables = new DisposableStore();

  function view(conversationId: string): Continuity {
    return { conversationId, kind: kindOf(store.state(conversationId)) };
  }

  function set(conversationId: string, state: ContinuityState | null): void {
    if (closed) return;
    const before = kindOf(store.state(conversationId));
    if (!store.set(conversationId, state, now())) return;
    if (kindOf(state) !== before) bus.emit('continuity:changed', view(conversationId));
  }

  chat.onTurnEnd(
    'continuity',
    (conversationId, info) => {
      // Workers' turns run in their own (child) conversations; `/compact` is no step of the list.
      if (info.agentId !== 'main') return set(conversationId, null);
      // With Autopilot on, a finished turn is its cue to go on (or to pause with its own notice).
      const carriesOn = info.outcome === 'complete' && deps.autopilotOn(conversationId);
      // "Stopped" only when someone pressed Stop; a turn that simply ended is paused.
      set(conversationId, carriesOn ? null : info.outcome === 'stopped' ? 'stopped' : 'paused');
    },
    disposables,
  );

  // A run marks the conversation `running`: a quit or a crash leaves it so, and the next
  // start reads it as interrupted. Workers run in child conversations: their parent counts.
  bus.on(
    'chat:status',
    ({ conversationId, running }) => {
      if (running) set(conversationId, 'running');
    },
    disposables,
  );
  bus.on(
    'workers:changed',
    ({ conversationId, workers }) => {
      if (workers.some((w) => w.status === 'running' || w.status === 'queued')) set(conversationId, 'running');
    },
    disposables,
  );

  const handlers: HandlersFor<typeof continuityCalls> = {
    'continuity:get': ({ conversationId }) => view(conversationId),
    'continuity:resume': ({ conversationId }) => {
      const task = resumeTask(deps.tasks.get(conversationId));
      if (!task)
        throw new AppError(
          'conflict',
          'There are no unfinished tasks to continue. Add a task or write a message instead.',
        );
      // Refused (nothing stored) while the agent runs; the run it starts marks the state.
      chat.post(conversationId, { kind: 'continue', task: task.title });
      return view(conversationId);
    },
  };

  return {
    handlers,
    view,
    /** The user's Stop (after every agent has wound down): the list is left where it stood. */
    stopped(conversationId: string): void {
      if (!chat.isRunning(conversationId)) set(conversationId, 'stopped');
    },
    /** Before the chat engine shuts down: a run cut off by the quit stays `running`, read as interrupted next time. */
    dispose(): void {
      closed = true;
      disposables.dispose();
    },
  };
}

export type ContinuityModule = ReturnType<typeof createContinuity>;
