// Calls that wait in the plan gate (docs/task-lists.md, "Plan review"): a worker's call
// until the plan is approved, and ("Every plan") a call while a change to the approved
// plan waits for the user. Nothing here decides: `recheck` asks the plan module about each
// waiting call whenever the plan or the list may have changed, by whatever route (an
// answer, the user's edit, another agent's change, a version switch, a new mode), so a
// wait never outlives its reason.
import type { PlanCall } from '../../../shared/planContract';
import type { ToolRefusal } from '../tools/toolRegistry';

/** `wait`: keep waiting; null: go on and make the call; a refusal: answer the call with it. */
export type WaitVerdict = 'wait' | ToolRefusal | null;

interface Entry {
  call: PlanCall;
  settle(answer: ToolRefusal | null): void;
}

export function createPlanWaits(deps: { changed(conversationId: string): void }) {
  const waiting = new Map<string, Set<Entry>>();

  function remove(conversationId: string, entry: Entry): void {
    const set = waiting.get(conversationId);
    if (!set?.delete(entry)) return;
    if (!set.size) waiting.delete(conversationId);
    deps.changed(conversationId);
  }

  return {
    /** Waits until `recheck` settles the call; Stop (the signal) takes it off the list. */
    add(conversationId: string, call: PlanCall, signal: AbortSignal): Promise<ToolRefusal | null> {
      return new Promise((resolve) => {
        const entry: Entry = {
          call,
          settle: (answer) => {
            signal.removeEventListener('abort', onAbort);
            remove(conversationId, entry);
            resolve(answer);
          },
        };
        // The registry answers a stopped call as cancelled; this only forgets it.
        const onAbort = () => entry.settle(null);
        if (signal.aborted) return resolve(null);
        signal.addEventListener('abort', onAbort, { once: true });
        let set = waiting.get(conversationId);
        if (!set) waiting.set(conversationId, (set = new Set()));
        set.add(entry);
        deps.changed(conversationId);
      });
    },
    has: (conversationId: string) => waiting.has(conversationId),
    list(conversationId: string): PlanCall[] {
      return [...(waiting.get(conversationId) ?? [])].map((e) => e.call);
    },
    /** Asks `verdict` about every waiting call of the conversation and settles those that need not wait. */
    recheck(conversationId: string, verdict: (call: PlanCall) => WaitVerdict): void {
      // Deleting the entry being visited is safe while iterating a Set.
      for (const entry of waiting.get(conversationId) ?? []) {
        const answer = verdict(entry.call);
        if (answer !== 'wait') entry.settle(answer);
      }
    },
    /** Shutdown: every waiting call goes on (and sees its aborted signal). */
    releaseAll(): void {
      for (const set of waiting.values()) for (const entry of set) entry.settle(null);
    },
  };
}

export type PlanWaits = ReturnType<typeof createPlanWaits>;
