// What the chat engine tells other modules: a turn ended, `/clear`, an edit is about to
// rewrite a branch, a loop's activity changed. Each is an `Emitter` (shared/event.ts), so
// a module subscribes with its `DisposableStore` and is released with it.
//
// A finished turn is one pipeline with its phases in a fixed order: plan review first
// records the plan the turn left (Autopilot holds on it), then Autopilot decides whether
// to carry on, then continuity marks the list paused or stopped (it asks whether
// Autopilot carries on), then the workers hand their results to the idle main agent, and
// last the observers (routines' settle watcher, tests) see the outcome of all of that.
import type { ChatError } from '../../../shared/domain';
import { Emitter, type Disposable, type DisposableStore } from '../../../shared/event';
import type { LoopActivity, LoopOutcome } from './agentLoop';

export interface TurnEndInfo {
  agentId: string;
  outcome: LoopOutcome['kind'];
  error: ChatError | null;
}
export type TurnEndHook = (conversationId: string, info: TurnEndInfo) => void | Promise<void>;

/** The turn-end phases, in the order they run. */
export const TURN_END_PHASES = ['plans', 'autopilot', 'continuity', 'workers', 'observers'] as const;
export type TurnEndPhase = (typeof TURN_END_PHASES)[number];

/** `/clear`: a listener adds a sentence saying what it cleared (shown in the chat). */
export interface ClearEvent {
  conversationId: string;
  said: string[];
}

export interface ActivityEvent {
  conversationId: string;
  agentId: string;
  activity: LoopActivity;
}

export function createChatEvents(report: (what: string, error: unknown) => void) {
  // An edit or a clear that a listener refuses does not happen: the error reaches the caller.
  const rethrow = {
    onListenerError: (error: unknown) => {
      throw error;
    },
  };
  const beforeEdit = new Emitter<string>(rethrow);
  const clear = new Emitter<ClearEvent>(rethrow);
  const activity = new Emitter<ActivityEvent>({ onListenerError: (error) => report('activity hook', error) });
  const phases = TURN_END_PHASES.map(
    () =>
      new Emitter<{ conversationId: string; info: TurnEndInfo }>({
        onListenerError: (error) => report('turn-end hook', error),
      }),
  );

  return {
    /** Fired before an edit rewrites the branch (task lists follow branches: tasks/branchLists.ts). */
    onBeforeEdit: beforeEdit.event,
    onClear: clear.event,
    /** Every change of a loop's activity (streaming ↔ tool), for any agent. */
    onActivity: activity.event,
    /** Follows finished turns in `phase` (see TURN_END_PHASES); a hook's rejection is logged. */
    onTurnEnd(phase: TurnEndPhase, hook: TurnEndHook, store?: DisposableStore): Disposable {
      const emitter = phases[TURN_END_PHASES.indexOf(phase)];
      return emitter.event(({ conversationId, info }) => {
        void Promise.resolve(hook(conversationId, info)).catch((error: unknown) => report('turn-end hook', error));
      }, store);
    },

    beforeEdit: (conversationId: string) => beforeEdit.fire(conversationId),
    /** The sentences of what each listener cleared. */
    clear(conversationId: string): string[] {
      const event: ClearEvent = { conversationId, said: [] };
      clear.fire(event);
      return event.said;
    },
    activity: (event: ActivityEvent) => activity.fire(event),
    /** Runs the phases in order, after the engine's own bookkeeping of the turn (a microtask later). */
    turnEnded(conversationId: string, info: TurnEndInfo): void {
      void Promise.resolve().then(() => {
        for (const phase of phases) phase.fire({ conversationId, info });
      });
    },

    dispose(): void {
      for (const emitter of [beforeEdit, clear, activity, ...phases]) emitter.dispose();
    },
  };
}
