// The planning-phase gate, enforced in code before a call is made: while review is on and
// no plan is approved, only tools that are safe while planning run (the task tools,
// `think`, `get_current_time`, `ask_user`, read-only MCP tools). Everything else comes
// back as a tool error the model can act on; the tool itself never sees the call.
import { PLAN_MAX_TASKS, type PlanPhase, type PlanReviewMode } from '../../../shared/planContract';
import { NOT_APPROVED } from '../../../shared/planText';
import type { ToolGate, ToolRefusal } from '../tools/toolRegistry';
import type { ToolDefinition } from '../tools/toolTypes';

export { NOT_APPROVED };

const TOO_MANY = `Error: A plan holds at most ${PLAN_MAX_TASKS} tasks. Group small steps into larger tasks and send a shorter list.`;
const EMPTY = 'Error: A plan needs at least one task. Send the tasks of the plan, or answer without a task list.';

export interface GateDeps {
  /** Where the conversation stands; called only for tools that act (and list checks). */
  phase(conversationId: string): { phase: PlanPhase; mode: PlanReviewMode };
  /** Tasks in the open list (for task_create's limit). */
  taskCount(conversationId: string): number;
  /** "Every plan": a promise settled once the user answered a held amendment, or null when none is held. */
  amendmentAnswered(conversationId: string, mode: PlanReviewMode): Promise<void> | null;
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

export function createPlanGate(deps: GateDeps): ToolGate {
  return (tool, args, ctx) => {
    // Workers exist only once a plan is approved: their task is part of it.
    if (ctx.agentId !== 'main') return null;
    if (isSafeWhilePlanning(tool)) return listLimits(tool, args, ctx.conversationId, deps);
    const { phase, mode } = deps.phase(ctx.conversationId);
    if (phase === 'planning' || phase === 'review') return { content: NOT_APPROVED, refused: true };
    const held =
      phase === 'approved' && mode === 'every_plan' ? deps.amendmentAnswered(ctx.conversationId, mode) : null;
    return held ? held.then(() => null) : null;
  };
}
