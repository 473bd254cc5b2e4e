// What the model reads about plan review before each request. The gate enforces the
// phase in code; this section lets a model plan well instead of learning it by refusals.
import { PLAN_MAX_TASKS, type PlanPhase, type PlanReviewMode } from '../../../shared/planContract';
import type { PromptProvider } from '../llm/promptTypes';

/** "Before tools that change things": work as usual; only calls that change things wait for the plan. */
const BEFORE_ACTING = [
  'Plan review is on in this conversation: the user approves your plan before any tool that changes things runs (a tool not marked read-only, such as writing a file or sending something). Everything else works as usual: answer, write and update your task list, use read-only tools and start workers.',
  `Before you call a tool that changes things, write your plan as a task list (1 to ${PLAN_MAX_TASKS} tasks) with your task tools. Such a call made before the plan is approved is held: it is not made, and the user sees it under your plan. Then finish your reply in text; once the user approves the plan you are told so, and you make the call again. Without a task list such a call is refused: write the plan first.`,
].join('\n');

/** "Every plan": every list is reviewed before the work starts. */
const PLANNING = [
  'Plan review is on in this conversation: the user approves your plan before you act.',
  `You are in the planning phase. Write the plan as a task list (1 to ${PLAN_MAX_TASKS} tasks) with your task tools, then end your turn; the user reviews it, may edit it and comment on it, and approves it or asks for changes.`,
  'Until the plan is approved, tools that change things are held (not made); the task tools, think, get_current_time and read-only tools run. Use read-only tools to look things up for the plan. For a question that needs no work, just answer without a task list.',
].join('\n');

const EVERY_PLAN =
  'Plan review is on and the user approved your plan. Status changes need no approval, but the user approves every change to the tasks themselves (added, deleted, renamed or reordered); tools that change things wait until they have answered.';

export function planPrompt(
  where: (conversationId: string) => { mode: PlanReviewMode; phase: PlanPhase },
): PromptProvider {
  return {
    systemSection(ctx) {
      if (ctx.agentId !== 'main') return null;
      const { mode, phase } = where(ctx.conversationId);
      if (phase === 'planning' || phase === 'review') return mode === 'every_plan' ? PLANNING : BEFORE_ACTING;
      return phase === 'approved' && mode === 'every_plan' ? EVERY_PLAN : null;
    },
  };
}
