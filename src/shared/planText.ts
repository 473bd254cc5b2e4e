// The diff of two versions of a plan, and the payloads of the messages plan review puts
// into a conversation (their kinds and texts: messageKinds.ts).
import type { PlanComments, PlanTask } from './planContract';
import { callGroups, countCalls, describeChange, PlanChange, type HeldCall, type PlumbingOf } from './messageKinds';

export { callGroups, countCalls, describeChange, PlanChange };

/** What a refused call read before calls were held (transcripts from then still show it). */
export const NOT_APPROVED =
  'The plan is not approved yet. Only planning and read-only tools are available; finish the plan and end your turn.';

/** The result of a call that changes things, made while the open plan waits for approval: it is held, not made. */
export const HELD_FOR_PLAN =
  'Held for plan review: this call was not made. It changes things, and the user has not approved your plan yet. The user now sees the call under your plan; once they approve the plan you will be told, and then you make the call again. Finish your reply in text; tools that change things are held the same way until then.';

/** The result of a call that changes things, made with no plan to approve: write the plan first. */
export const NO_PLAN_YET =
  'Held for plan review: this call was not made. It changes things, and plan review is on in this conversation: write your plan as a task list first with your task tools, then make the call again. The user approves the plan before such calls run.';

/** A worker's call that changes things while the main agent has no plan the user could approve. */
export const WORKER_NO_PLAN =
  'Held for plan review: this call was not made. It changes things, and there is no plan for the user to approve. Finish your task without it, or say in your result that it is needed.';

/** What changed from `before` to `after`, task by task (ids identify tasks). */
export function planDiff(before: readonly PlanTask[], after: readonly PlanTask[]): PlanChange[] {
  const old = new Map(before.map((t) => [t.id, t]));
  const now = new Set(after.map((t) => t.id));
  const changes: PlanChange[] = [];
  for (const task of before) if (!now.has(task.id)) changes.push({ kind: 'deleted', id: task.id, title: task.title });
  for (const task of after) {
    const was = old.get(task.id);
    if (!was) changes.push({ kind: 'added', id: task.id, title: task.title });
    else if (was.title !== task.title)
      changes.push({ kind: 'renamed', id: task.id, title: task.title, from: was.title });
  }
  const kept = (list: readonly PlanTask[], other: Set<number>) => list.filter((t) => other.has(t.id)).map((t) => t.id);
  const oldOrder = kept(before, now);
  const newOrder = kept(after, new Set(old.keys()));
  if (oldOrder.join(',') !== newOrder.join(',')) {
    for (const [index, id] of newOrder.entries()) {
      if (oldOrder[index] !== id) changes.push({ kind: 'moved', id, title: after.find((t) => t.id === id)!.title });
    }
  }
  return changes;
}

export function sameTasks(a: readonly PlanTask[], b: readonly PlanTask[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i].id && t.title === b[i].title);
}

/** The reviewer's comments in the order the model reads them: tasks first, then the plan. */
function planNotes(comments: PlanComments, tasks: readonly PlanTask[]): PlumbingOf<'plan_approved'>['comments'] {
  return [
    ...comments.tasks.map((comment) => ({
      taskId: comment.taskId,
      taskTitle: tasks.find((t) => t.id === comment.taskId)?.title ?? null,
      text: comment.text,
    })),
    ...(comments.general ? [{ taskId: null, taskTitle: null, text: comments.general }] : []),
  ];
}

/** "mcp__memory__create_entities" reads "memory · create_entities"; other tools keep their name. */
export function callLabel(name: string): string {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? `${match[1]} · ${match[2]}` : name;
}

const refs = (tasks: readonly PlanTask[]) => tasks.map((t) => ({ id: t.id, title: t.title }));

export function approvedPayload(
  revision: number,
  tasks: readonly PlanTask[],
  comments: PlanComments,
  held: readonly HeldCall[] = [],
): PlumbingOf<'plan_approved'> {
  return {
    kind: 'plan_approved',
    revision,
    taskCount: tasks.length,
    first: { id: tasks[0].id, title: tasks[0].title },
    comments: planNotes(comments, tasks),
    ...(held.length ? { held: held.map((c) => ({ name: c.name, runnable: c.runnable })) } : {}),
  };
}

export function changesRequestedPayload(
  edits: readonly PlanChange[],
  comments: PlanComments,
  tasks: readonly PlanTask[],
): PlumbingOf<'changes_requested'> {
  return { kind: 'changes_requested', edits: [...edits], comments: planNotes(comments, tasks), tasks: refs(tasks) };
}

/** The "Plan changed" note: the changes, then the plan before and after. */
export function planChangedPayload(
  revision: number,
  changes: readonly PlanChange[],
  before: readonly PlanTask[],
  after: readonly PlanTask[],
): PlumbingOf<'plan_changed'> {
  return {
    kind: 'plan_changed',
    revision,
    changes: [...changes],
    before: before.map((t) => t.title),
    after: after.map((t) => t.title),
  };
}

/**
 * The transcript's line for the user's answer to a change ("Every plan"): shown as it is
 * (a system note, never sent to the model, never read back), with the change under it.
 */
export function planAnswerNote(
  answer: { approved: true; revision: number } | { approved: false },
  changes: readonly PlanChange[],
): string {
  const head = answer.approved ? `Plan change approved · revision ${answer.revision}` : 'Plan change rejected';
  return [head, ...changes.map((c) => `- ${describeChange(c)}`)].join('\n');
}
