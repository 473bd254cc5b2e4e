// Follows conversations until their agents come to rest: finished, failed, stopped, or
// waiting for the user. Every change that can end a run (a turn's end, Autopilot's check,
// an approval, a question, a plan, a worker) makes it look again, one macrotask later, so
// the other modules' own turn-end hooks have had their say first.
import type { EventBus } from '../ipc/eventBus';
import { Emitter, toDisposable, type Disposable, type DisposableStore } from '../../../shared/event';
import { runOutcome, type RunState, type TurnEnd } from './runOutcome';
import type { RunEnd } from './scheduler';

export interface SettleDeps {
  bus: EventBus;
  state: RunState;
  onTurnEnd(
    phase: 'observers',
    hook: (
      conversationId: string,
      info: { agentId: string; outcome: string; error: { message: string } | null },
    ) => void,
    store: DisposableStore,
  ): Disposable;
  /** The routines module's store: the watcher's subscriptions go with it. */
  disposables: DisposableStore;
}

type Settled = (end: RunEnd) => void;

export function createSettleWatcher(deps: SettleDeps) {
  const watched = new Map<string, Settled>();
  const lastTurn = new Map<string, TurnEnd>();
  const scheduled = new Set<string>();
  const { disposables } = deps;
  let closed = false;
  disposables.add(toDisposable(() => (closed = true)));
  const moved = disposables.add(new Emitter<string>());

  function look(conversationId: string): void {
    if (closed || scheduled.has(conversationId)) return;
    scheduled.add(conversationId);
    setImmediate(() => {
      scheduled.delete(conversationId);
      const settled = watched.get(conversationId);
      if (closed || !settled) return;
      let end: RunEnd | null;
      try {
        end = runOutcome(deps.state, conversationId, lastTurn.get(conversationId) ?? null);
      } catch {
        // The conversation was deleted meanwhile: the run was stopped with it.
        end = { status: 'stopped', detail: 'The conversation was deleted.' };
      }
      if (!end) return;
      watched.delete(conversationId);
      settled(end);
    });
  }

  function changed(conversationId: string): void {
    moved.fire(conversationId);
    if (watched.has(conversationId)) look(conversationId);
  }

  /** Conversations whose loops are other agents' (a worker's transcript): never followed. */
  const others = new Set<string>();
  deps.onTurnEnd(
    'observers',
    (conversationId, info) => {
      if (info.agentId !== 'main') {
        // `/compact` runs in the conversation itself; a worker runs in a transcript of its own.
        if (info.agentId.startsWith('worker-')) {
          others.add(conversationId);
          watched.delete(conversationId);
        }
        return;
      }
      lastTurn.set(conversationId, { outcome: info.outcome, error: info.error });
      changed(conversationId);
    },
    disposables,
  );
  deps.bus.on(
    'chat:status',
    ({ conversationId, running }) => {
      if (running) lastTurn.delete(conversationId);
      changed(conversationId);
    },
    disposables,
  );
  for (const event of [
    'approvals:changed',
    'questions:changed',
    'autopilot:state',
    'plan:state',
    'workers:changed',
  ] as const)
    deps.bus.on(event, ({ conversationId }) => changed(conversationId), disposables);

  return {
    /** Calls `settled` once, when the conversation's agents come to rest. Replaces an earlier watch. */
    watch(conversationId: string, settled: Settled): void {
      if (others.has(conversationId)) return;
      watched.set(conversationId, settled);
      look(conversationId);
    },
    unwatch: (conversationId: string) => void watched.delete(conversationId),
    watching: (conversationId: string) => watched.has(conversationId),
    /** Every change that may move a conversation (for the background watch of Activity). */
    onMoved: moved.event,
  };
}

export type SettleWatcher = ReturnType<typeof createSettleWatcher>;
