// The plan gate, enforced in code before a call is made (docs/task-lists.md, "Plan
// review"). Tools that change nothing (the task tools, `think`, `get_current_time`,
// `ask_user`, `start_task`, read-only MCP tools) always run. A tool that changes things
// runs once the open plan is approved; before that the conversation's own agent has the
// call held (not made, shown to the user with the plan) or, with no plan at all, refused
// with a request to write one, and a worker's call waits for the approval.
import { PLAN_MAX_TASKS, type PlanPhase, type PlanReviewMode } from '../../../shared/planContract';
import { HELD_FOR_PLAN, NO_PLAN_YET, NOT_APPROVED, WORKER_NO_PLAN } from '../../../shared/planText';
import type { ToolGate, ToolRefusal } from '../tools/toolRegistry';
import type { ToolContext, ToolDefinition } from '../tools/toolTypes';

export { HELD_FOR_PLAN, NO_PLAN_YET, NOT_APPROVED, WORKER_NO_PLAN };

const TOO_MANY = `Error: A plan holds at most ${PLAN_MAX_TASKS} tasks. Group small steps into larger tasks and send a shorter list.`;
const EMPTY = 'Error: A plan needs at least one task. Send the tasks of the plan, or answer without a task list.';

/** The task tools that write a list: a call beside one in the same reply is held, not refused. */
const WRITES_LIST = new Set(['manage_todo_list', 'task_create']);

export const HELD: ToolRefusal = { content: HELD_FOR_PLAN, refused: true, outcome: 'held' };
export const NO_PLAN: ToolRefusal = { content: NO_PLAN_YET, refused: true, outcome: 'held' };
export const WORKER_REFUSED: ToolRefusal = { content: WORKER_NO_PLAN, refused: true, outcome: 'held' };

/**
 * What happens to one call: `run`; `held` (not made; the card lists it); `no_plan`
 * (refused: write the plan first); `wait_for_plan` (a worker's call waits for the
 * approval); `wait_for_change` ("Every plan": waits while a change to the plan is held).
 */
export type GateDecision = 'run' | 'held' | 'no_plan' | 'wait_for_plan' | 'wait_for_change';

/** The gate's rule for every mode × phase × tool kind × agent, without any I/O. */
export function decide(input: {
  acts: boolean;
  worker: boolean;
  mode: PlanReviewMode;
  phase: PlanPhase;
  /** The same reply also writes a task list (the list comes first, whatever the order). */
  listInReply: boolean;
}): GateDecision {
  const { acts, worker, mode, phase } = input;
  if (!acts || phase === 'off' || mode === 'off') return 'run';
  if (phase === 'approved') return mode === 'every_plan' && !worker ? 'wait_for_change' : 'run';
  if (phase === 'review' || (input.listInReply && !worker)) return worker ? 'wait_for_plan' : 'held';
  return 'no_plan';
}

export interface GateDeps {
  /** Where the conversation stands; called only for tools that act (and list checks). */
  phase(conversationId: string): { phase: PlanPhase; mode: PlanReviewMode };
  /** Tasks in the open list (for task_create's limit). */
  taskCount(conversationId: string): number;
  /**
   * A call that waits (a worker's for the plan's approval, or one behind a held change):
   * settles with null once it may run, or with the answer the gate gives it by then. Null
   * instead of a promise: nothing to wait for (no change is held), run now.
   */
  wait(
    kind: 'wait_for_plan' | 'wait_for_change',
    tool: ToolDefinition,
    args: unknown,
    ctx: ToolContext,
  ): Promise<ToolRefusal | null> | null;
}

export function isSafeWhilePlanning(tool: ToolDefinition): boolean {
  const safe = tool.safeWhilePlanning;
  return typeof safe === 'function' ? safe() : safe === true;
}

/** The length of `todoList` in manage_todo_list's arguments, or null when it is not a list. */
function todoLength(args: unknown): number | null {
  let list: unknown = args && typeof args === 'object' ? (args as { todoList?: unknown }).todoList : undefined;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      // The tool's own validation explains broken arguments.
      return null;
    }
  }
  return Array.isArray(list) ? list.length : null;
}

function listLimits(tool: ToolDefinition, args: unknown, conversationId: string, deps: GateDeps): ToolRefusal | null {
  if (tool.name === 'task_create') {
    if (deps.phase(conversationId).phase === 'off') return null;
    return deps.taskCount(conversationId) >= PLAN_MAX_TASKS ? { content: TOO_MANY, refused: false } : null;
  }
  if (tool.name !== 'manage_todo_list') return null;
  // The length first: a list of allowed size passes in every phase, so the common call
  // (a model ticking off a task) never asks where the conversation stands.
  const length = todoLength(args);
  if (length === null || (length > 0 && length <= PLAN_MAX_TASKS)) return null;
  const { phase } = deps.phase(conversationId);
  if (phase === 'off') return null;
  if (length > PLAN_MAX_TASKS) return { content: TOO_MANY, refused: false };
  // After approval an empty list is how a model clears a finished plan.
  if (phase !== 'approved') return { content: EMPTY, refused: false };
  return null;
}

/** The answer for a decision that does not wait (a waiting call is asked again as things change). */
export function refusalOf(decision: 'run' | 'held' | 'no_plan', worker: boolean): ToolRefusal | null {
  if (decision === 'run') return null;
  if (decision === 'held') return HELD;
  return worker ? WORKER_REFUSED : NO_PLAN;
}

export function createPlanGate(deps: GateDeps): ToolGate {
  return (tool, args, ctx) => {
    const worker = ctx.agentId !== 'main';
    if (isSafeWhilePlanning(tool)) return worker ? null : listLimits(tool, args, ctx.conversationId, deps);
    const { phase, mode } = deps.phase(ctx.conversationId);
    const listInReply = !!ctx.batch?.some((name) => WRITES_LIST.has(name));
    const decision = decide({ acts: true, worker, mode, phase, listInReply });
    switch (decision) {
      case 'run':
      case 'held':
      case 'no_plan':
        return refusalOf(decision, worker);
      case 'wait_for_plan':
      case 'wait_for_change':
        return deps.wait(decision, tool, args, ctx);
    }
  };
}
