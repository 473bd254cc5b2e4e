// Which phase a conversation's plan is in (planning, review, approved, off), with its mode:
// in full from the list (`where`), or from one query for the gate before every acting call.
import type { PlanPhase, PlanReviewMode } from '../../../shared/planContract';
import type { Settings } from '../../../shared/settings';
import type { TaskService } from '../tasks/taskService';
import { notFound } from '../ipc/dispatcher';
import type { PlanStore } from './planStore';

const FINISHED = new Set(['completed', 'cancelled']);

export interface PlanPhaseDeps {
  store: PlanStore;
  settings: { effective(): Settings };
  tasks: Pick<TaskService, 'get'>;
}

export function createPlanPhases({ store, settings, tasks }: PlanPhaseDeps) {
  const defaultMode = () => settings.effective().planReviewDefault;

  /** The conversation's mode (its own or the default); `not_found` when it is gone. */
  function modeOf(conversationId: string): PlanReviewMode {
    const mode = store.mode(conversationId);
    if (mode === undefined) throw notFound(`Conversation ${conversationId}`);
    return mode ?? defaultMode();
  }

  /** The phase, and the open list with its approved revision when it has one. */
  function where(conversationId: string) {
    const own = store.mode(conversationId);
    const mode = own ?? defaultMode();
    const list = own === undefined ? null : tasks.get(conversationId);
    // An approved plan a turn finished covers no work added to it later.
    const done = !!list && list.tasks.length > 0 && store.isDone(conversationId, list.id);
    const approved = list && list.tasks.length && !done ? store.approved(conversationId, list.id) : null;
    const finished = !!list && list.tasks.every((t) => FINISHED.has(t.status));
    let phase: PlanPhase;
    if (mode === 'off') phase = 'off';
    else if (!list || !list.tasks.length) phase = 'planning';
    // A finished list is done with, approved or not: new work needs a plan of its own.
    else if (finished) phase = 'planning';
    else phase = approved ? 'approved' : 'review';
    return { mode, phase, list, approved };
  }

  /** Review is off (or the conversation is gone): one key lookup. */
  function reviewOff(conversationId: string): boolean {
    const own = store.mode(conversationId);
    return own === undefined || (own ?? defaultMode()) === 'off';
  }

  /** The phase as `where` decides it, from one query (the gate runs before every acting call). */
  function quickPhase(conversationId: string): { phase: PlanPhase; mode: PlanReviewMode } {
    // The gate's counts over the list cost more than the task write they precede (every
    // manage_todo_list call asks): with review off they are not needed.
    if (reviewOff(conversationId)) return { phase: 'off', mode: 'off' };
    const row = store.gate(conversationId);
    if (!row) return { phase: 'off', mode: 'off' };
    const mode = row.mode ?? defaultMode();
    if (mode === 'off') return { phase: 'off', mode };
    if (!row.total || !row.open) return { phase: 'planning', mode };
    return { phase: row.approved && !row.done ? 'approved' : 'review', mode };
  }

  return { modeOf, where, reviewOff, quickPhase };
}
