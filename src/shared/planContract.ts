// Plan review (docs/task-lists.md, "Plan review"): the "Review plans" setting of a
// conversation, the approved plan's revisions, and the calls the review card makes.
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { PLAN_REVIEW_MODES } from './planModes';

/** Off; before tools that change things (the default of new conversations); every plan. */
export const PlanReviewMode = z.enum(PLAN_REVIEW_MODES);
export type PlanReviewMode = z.infer<typeof PlanReviewMode>;

/** A plan holds at most this many tasks; a longer list is refused with a tool error. */
export const PLAN_MAX_TASKS = 50;

/** One task as the user reviewed (or approved) it. */
export const PlanTask = z.object({ id: z.number().int(), title: z.string() });
export type PlanTask = z.infer<typeof PlanTask>;

export const PlanComment = z.object({ taskId: z.number().int(), text: z.string().trim().min(1).max(4000) });
export const PlanComments = z.object({
  general: z.string().trim().max(8000),
  tasks: z.array(PlanComment).max(200),
});
export type PlanComments = z.infer<typeof PlanComments>;

/** One review of a plan: changes requested (approvedAt null) or approved. */
export const PlanRevision = z.object({
  revision: z.number().int().min(1),
  tasks: z.array(PlanTask),
  comments: PlanComments,
  approvedAt: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type PlanRevision = z.infer<typeof PlanRevision>;

/** A change to an approved plan held for the user ("Every plan"): the approved tasks and the list now. */
export const PlanAmendment = z.object({ before: z.array(PlanTask), after: z.array(PlanTask) });
export type PlanAmendment = z.infer<typeof PlanAmendment>;

/**
 * `planning`: review is on and no list yet; `review`: an unapproved list waits for the
 * user (the card, once the agent is idle); `approved`: tools that act are available.
 */
export const PlanPhase = z.enum(['off', 'planning', 'review', 'approved']);
export type PlanPhase = z.infer<typeof PlanPhase>;

/**
 * A call plan review keeps from running: `held` (the main agent's call was not made; it
 * makes it again once the plan is approved), `waiting_for_plan` (a worker's call waits for
 * the approval), `waiting_for_change` ("Every plan": waits for the answer to a change).
 */
export const PlanCall = z.object({
  toolCallId: z.string(),
  /** `main` or a worker's owner id such as `worker-2`. */
  agentId: z.string(),
  /** Where its card is: the conversation, or a worker's transcript. */
  transcriptId: ConversationId,
  /** The tool's name as the model called it (`mcp__memory__create_entities`). */
  name: z.string(),
  arguments: z.string(),
  state: z.enum(['held', 'waiting_for_plan', 'waiting_for_change']),
  /** False once the tool is gone (its server disconnected or was removed): the call can no longer run. */
  runnable: z.boolean(),
});
export type PlanCall = z.infer<typeof PlanCall>;

export const PlanState = z.object({
  conversationId: ConversationId,
  /** The conversation's own choice, or the Settings default when it has none. */
  mode: PlanReviewMode,
  phase: PlanPhase,
  /** The revision number the next review of this list gets. */
  revision: z.number().int().min(1),
  /** The last approved revision of the open list. */
  approved: PlanRevision.nullable(),
  /** "Every plan": the change to the approved plan waiting for the user; tools that act wait for the answer. */
  amendment: PlanAmendment.nullable(),
  /**
   * The task header is the review card once the agent is idle: the open, unfinished plan
   * waits for approval ("Every plan"), or a call was held for it ("Before tools that
   * change things"). Never for a finished list.
   */
  reviewing: z.boolean(),
  /** Calls held or waiting for the user's answer, oldest first. */
  calls: z.array(PlanCall),
});
export type PlanState = z.infer<typeof PlanState>;

const Conversation = { conversationId: ConversationId };
/** The list as the card drew it: a plan changed since is not approved ("stale"). */
const Reviewed = { ...Conversation, tasks: z.array(PlanTask).max(PLAN_MAX_TASKS), comments: PlanComments };

export const planCalls = {
  'plan:get': call(z.strictObject(Conversation), PlanState),
  'plan:setMode': call(z.strictObject({ ...Conversation, mode: PlanReviewMode }), PlanState),
  'plan:approve': call(z.strictObject({ ...Reviewed, autopilot: z.boolean().default(false) }), PlanState),
  'plan:requestChanges': call(z.strictObject(Reviewed), PlanState),
  /** The change as the header drew it: its tasks and the approved revision it changes ("stale" otherwise). */
  'plan:answerAmendment': call(
    z.strictObject({
      ...Conversation,
      approve: z.boolean(),
      tasks: z.array(PlanTask).max(PLAN_MAX_TASKS),
      approvedRevision: z.number().int().min(1),
    }),
    PlanState,
  ),
  'plan:revisions': call(z.strictObject(Conversation), z.array(PlanRevision)),
};

export const planEvents = {
  /**
   * Pushed by the core whenever the state may have changed: the plan's own calls, the task
   * list, the agent's turns, the default mode (to conversations that asked for the state),
   * a held call's tools. A view reads `plan:get` once and follows this event only.
   */
  'plan:state': PlanState,
};
