// Plan review in the core (docs/task-lists.md, "Plan review"): the per-conversation
// setting, the planning-phase gate on the tool registry, the prompt section that tells
// the model about the phase, and the review card's calls (approve, request changes).
import type { Message } from '../../../shared/domain';
import type { Plumbing } from '../../../shared/messageKinds';
import type { PlanCall, PlanComments, PlanPhase, PlanState, PlanTask } from '../../../shared/planContract';
import { approvedPayload, changesRequestedPayload, planDiff, sameTasks } from '../../../shared/planText';
import type { Settings } from '../../../shared/settings';
import type { TaskList } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import { AppError, notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import type { PromptProvider } from '../llm/promptTypes';
import type { ToolGate, ToolRan } from '../tools/toolRegistry';
import { DisposableStore, Emitter, type Disposable, type Event } from '../../../shared/event';
import { createPlanGate, decide, refusalOf } from './planGate';
import { createPlanWaits, type WaitVerdict } from './planWaits';
import { createPlanStore } from './planStore';
import { createAmendments, type PlanNotes } from './planAmendments';
import type { TaskService } from '../tasks/taskService';
import { planPrompt } from './planPrompt';
import { faultPoint } from '../faults/faultPoints';
import type { HandlersFor } from '../../../shared/contract';
import type { planCalls } from '../../../shared/planContract';
import { createPlanPhases } from './planPhase';
import { planOf, reviewableList } from './planReviewable';

export { planOf };

export interface PlanModuleDeps {
  db: Db;
  bus: EventBus;
  now?: () => number;
  settings: { effective(): Settings };
  tasks: Pick<TaskService, 'get' | 'change'>;
  messages: PlanNotes;
  chat: {
    /** `alongside` runs in the message's transaction. */
    post(conversationId: string, plumbing: Plumbing, content?: string, alongside?: () => void): Message;
    isRunning(conversationId: string): boolean;
    onTurnEnd(
      phase: 'plans',
      hook: (conversationId: string, info: { agentId: string; outcome: string }) => void,
      store: DisposableStore,
    ): Disposable;
  };
  tools: {
    setGate(gate: ToolGate | null): void;
    onRan: Event<ToolRan>;
    /** Whether a tool is still there (a held MCP call whose server went away can no longer run). */
    has(name: string): boolean;
  };
  prompts: { add(provider: PromptProvider): () => void };
}

/** A plan the user approved; `autopilot`: "Approve and run on Autopilot" (Autopilot follows this). */
export interface PlanApproved {
  conversationId: string;
  autopilot: boolean;
}

/** The task tools that change a list (reading ones never amend a plan). */
const CHANGING = new Set(['manage_todo_list', 'task_create', 'task_update', 'task_delete']);

export function createPlans(deps: PlanModuleDeps) {
  const { db, bus } = deps;
  const now = deps.now ?? Date.now;
  const store = createPlanStore(db);
  const disposables = new DisposableStore();
  // Fired before the approval's message starts the agent, so Autopilot is on for its turn.
  const approvedEmitter = disposables.add(new Emitter<PlanApproved>());
  const amendments = createAmendments({
    db,
    store,
    now,
    tasks: deps.tasks,
    messages: deps.messages,
    stored: (message) => bus.emit('messages:changed', { conversationId: message.conversationId, message }),
  });

  const { modeOf, where, reviewOff, quickPhase } = createPlanPhases({
    store,
    settings: deps.settings,
    tasks: deps.tasks,
  });

  /** Held calls wait for the open plan's approval; waiting ones are in the gate now. */
  function callsOf(conversationId: string, phase: PlanPhase): PlanCall[] {
    const held = phase === 'review' ? store.held(conversationId).map((c) => ({ ...c, state: 'held' as const })) : [];
    return [...held, ...waits.list(conversationId)].map((c) => ({ ...c, runnable: deps.tools.has(c.name) }));
  }

  function state(conversationId: string): PlanState {
    modeOf(conversationId);
    const { mode, phase, list, approved } = where(conversationId);
    const calls = callsOf(conversationId, phase);
    if (calls.length) holding.add(conversationId);
    else holding.delete(conversationId);
    return {
      conversationId,
      mode,
      phase,
      revision: list && list.tasks.length ? store.nextRevision(conversationId, list.id) : 1,
      approved,
      amendment: mode === 'every_plan' && phase === 'approved' ? amendments.held(list, approved) : null,
      // "Before tools that change things" asks for a review only once a call waits for one.
      reviewing: phase === 'review' && (mode === 'every_plan' || calls.some((c) => c.state !== 'waiting_for_change')),
      calls,
    };
  }

  function emitState(conversationId: string): void {
    try {
      bus.emit('plan:state', state(conversationId));
    } catch {
      // The conversation is gone (or the database is closing): nobody is left to tell.
      viewed.delete(conversationId);
      holding.delete(conversationId);
    }
  }
  const waits = createPlanWaits({ changed: emitState });

  // The state is derived from other features' changes (the list, the turns, the settings,
  // the tools): the core pushes it, so no view asks again on their events. Coalesced per
  // conversation after the change's own event, which it never delays.
  /** Conversations whose state was asked for (a view may show it). */
  const viewed = new Set<string>();
  /** Conversations whose last state had calls held or waiting. */
  const holding = new Set<string>();
  const pending = new Set<string>();
  let flush: NodeJS.Immediate | null = null;
  function later(conversationId: string): void {
    pending.add(conversationId);
    flush ??= setImmediate(() => {
      flush = null;
      const due = [...pending];
      pending.clear();
      for (const id of due) emitState(id);
    });
  }
  /** With review off nothing but the mode changes the state: a task write costs no extra work. */
  function follow(conversationId: string): void {
    if (!reviewOff(conversationId)) later(conversationId);
  }

  /** Asks every waiting call again: the plan, the list or the mode may have changed by any route. */
  function recheck(conversationId: string): void {
    if (!waits.has(conversationId)) return;
    const { mode, phase } = quickPhase(conversationId);
    waits.recheck(conversationId, (call): WaitVerdict => {
      const worker = call.agentId !== 'main';
      const decision = decide({ acts: true, worker, mode, phase, listInReply: false });
      if (decision === 'wait_for_plan') return 'wait';
      if (decision === 'wait_for_change') return store.differsFromApproved(conversationId) ? 'wait' : null;
      return refusalOf(decision, worker);
    });
  }

  const push = (conversationId: string) => {
    recheck(conversationId);
    emitState(conversationId);
  };

  deps.tools.setGate(
    createPlanGate({
      phase: quickPhase,
      taskCount: (conversationId) => deps.tasks.get(conversationId)?.tasks.length ?? 0,
      wait: (kind, tool, args, ctx) => {
        if (kind === 'wait_for_change' && !store.differsFromApproved(ctx.conversationId)) return null;
        const call: PlanCall = {
          toolCallId: ctx.callId ?? '',
          agentId: ctx.agentId,
          transcriptId: ctx.transcriptId ?? ctx.conversationId,
          name: tool.name,
          arguments: JSON.stringify(args ?? {}),
          state: kind === 'wait_for_plan' ? 'waiting_for_plan' : 'waiting_for_change',
          runnable: true,
        };
        return waits.add(ctx.conversationId, call, ctx.signal);
      },
    }),
  );
  // A wait ends whichever way its reason goes: the user's edit, another agent, a version switch.
  bus.on(
    'tasks:changed',
    ({ conversationId }) => {
      recheck(conversationId);
      follow(conversationId);
    },
    disposables,
  );
  // The phase follows the agent's turns too ("reviewing" waits for it to be idle).
  bus.on('chat:status', ({ conversationId }) => follow(conversationId), disposables);
  // A new default mode changes every conversation that follows it; one is told if it was viewed.
  let defaultMode = deps.settings.effective().planReviewDefault;
  bus.on(
    'settings:changed',
    () => {
      const next = deps.settings.effective().planReviewDefault;
      if (next === defaultMode) return;
      defaultMode = next;
      for (const conversationId of viewed) later(conversationId);
    },
    disposables,
  );
  // A held call can no longer run once its tool is gone (its MCP server disconnected).
  bus.on(
    'mcp:changed',
    () => {
      for (const conversationId of holding) later(conversationId);
    },
    disposables,
  );
  // A change the model made to an approved plan: taken at once, or held for the user.
  deps.tools.onRan(({ tool, ctx }) => {
    // Most calls come before any approval: that one lookup settles them, mode or not.
    if (!CHANGING.has(tool.name) || !store.hasOpenApproval(ctx.conversationId) || reviewOff(ctx.conversationId)) return;
    const { mode, phase, list, approved } = where(ctx.conversationId);
    if (phase !== 'approved' || !list || !approved) return;
    if (mode === 'before_acting') amendments.accept(ctx.conversationId, list, approved);
    push(ctx.conversationId);
  }, disposables);
  deps.prompts.add(planPrompt((conversationId) => where(conversationId)));

  // The plan as the model left it: the review card's edits are described against it.
  deps.chat.onTurnEnd(
    'plans',
    (conversationId, info) => {
      if (info.agentId !== 'main' || store.mode(conversationId) === undefined) return;
      const { phase, list, approved } = where(conversationId);
      if (phase === 'review' && list) store.setDraft(conversationId, list.id, planOf(list));
      if (phase === 'planning' && list && approved) store.setDone(conversationId, list.id, true);
      push(conversationId);
    },
    disposables,
  );

  /** The open list, if the card's version of it may be reviewed now; otherwise a clear refusal. */
  function reviewable(conversationId: string, shown: PlanTask[], comments: PlanComments): TaskList {
    const situation = { ...where(conversationId), running: deps.chat.isRunning(conversationId) };
    return reviewableList(situation, shown, comments, () => push(conversationId));
  }

  const handlers: HandlersFor<typeof planCalls> = {
    'plan:get': ({ conversationId }) => {
      const now = state(conversationId);
      viewed.add(conversationId);
      return now;
    },
    'plan:setMode': ({ conversationId, mode }) => {
      if (!store.setMode(conversationId, mode)) throw notFound(`Conversation ${conversationId}`);
      push(conversationId);
      return state(conversationId);
    },
    'plan:approve': ({ conversationId, tasks, comments, autopilot }) => {
      const list = reviewable(conversationId, tasks, comments);
      const plan = planOf(list);
      const held = callsOf(conversationId, 'review').filter((c) => c.state === 'held');
      approvedEmitter.fire({ conversationId, autopilot: !!autopilot });
      // The approved revision and the quiet message (like Autopilot's) that has the agent
      // carry on with task 1 at once are one transaction: never a plan approved that the
      // agent was not told about. Nothing writes in between, so the number holds.
      const number = store.nextRevision(conversationId, list.id);
      faultPoint('plan:before-approve');
      deps.chat.post(conversationId, approvedPayload(number, plan, comments, held), '', () => {
        store.setDone(conversationId, list.id, false);
        store.addRevision(conversationId, list.id, { tasks: plan, comments, approvedAt: now(), createdAt: now() });
        faultPoint('plan:in-approve');
      });
      faultPoint('plan:after-approve');
      push(conversationId);
      return state(conversationId);
    },
    'plan:requestChanges': ({ conversationId, tasks, comments }) => {
      const list = reviewable(conversationId, tasks, comments);
      const plan = planOf(list);
      const edits = planDiff(store.draft(conversationId, list.id) ?? plan, plan);
      if (!edits.length && !comments.general && !comments.tasks.length) {
        throw new AppError(
          'invalid_request',
          'Say what should change: edit the list or add a comment, then request changes.',
        );
      }
      db.transaction(() =>
        store.addRevision(conversationId, list.id, { tasks: plan, comments, approvedAt: null, createdAt: now() }),
      )();
      deps.chat.post(conversationId, changesRequestedPayload(edits, comments, plan));
      push(conversationId);
      return state(conversationId);
    },
    'plan:answerAmendment': ({ conversationId, approve, tasks, approvedRevision }) => {
      const held = state(conversationId).amendment;
      const { list, approved } = where(conversationId);
      if (!held || !list || !approved) {
        push(conversationId);
        throw new AppError('conflict', 'There is no change to the plan waiting for you.');
      }
      // The answer is to the change as it was shown: a list changed since is not answered.
      if (approved.revision !== approvedRevision || !sameTasks(planOf(list), tasks)) {
        push(conversationId);
        throw new AppError(
          'conflict',
          'The plan changed while you were reviewing it. Review the change as it is now, then approve or reject it.',
        );
      }
      if (approve) amendments.approve(conversationId, list, approved);
      else {
        const error = amendments.reject(conversationId, list, approved);
        if (error) throw new AppError('conflict', `The plan could not be restored: ${error}`);
      }
      push(conversationId);
      return state(conversationId);
    },
    'plan:revisions': ({ conversationId }) => {
      modeOf(conversationId);
      return store.revisions(conversationId);
    },
  };

  return {
    handlers,
    state,
    store,
    /** Autopilot holds while a plan or a change waits for the user (it never approves one), and runs freely otherwise. */
    holds(conversationId: string): boolean {
      if (store.mode(conversationId) === undefined) return false;
      const now = state(conversationId);
      return now.reviewing || now.amendment !== null;
    },
    /** Approvals, as the user gives them (before the agent is told). */
    onApproved: approvedEmitter.event,
    /** Shutdown: waiting calls go on (their signal is aborted); every listener is released. */
    dispose(): void {
      if (flush) clearImmediate(flush);
      flush = null;
      waits.releaseAll();
      disposables.dispose();
    },
  };
}

export type Plans = ReturnType<typeof createPlans>;
