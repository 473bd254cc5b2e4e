// Plan review (docs/task-lists.md, "Plan review"): the "Review plans" setting of a
// conversation, the approved plan's revisions, and the calls the review card makes.
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { McpServerName, McpState } from './mcp';
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
  'plan:answerAmendment': call(z.strictObject({ ...Conversation, approve: z.boolean() }), PlanState),
  'plan:revisions': call(z.strictObject(Conversation), z.array(PlanRevision)),
  /** Settings → Tools (MCP): every tool of this server counts as read-only while a plan is reviewed. */
  'mcp:setReadOnly': call(z.strictObject({ name: McpServerName, readOnly: z.boolean() }), McpState),
};

export const planEvents = {
  'plan:state': PlanState,
};
