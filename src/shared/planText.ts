// The diff of two versions of a plan, and the payloads of the messages plan review puts
// into a conversation (their kinds and texts: messageKinds.ts).
import type { PlanComments, PlanTask } from './planContract';
import { describeChange, PlanChange, type PlumbingOf } from './messageKinds';

export { describeChange, PlanChange };

/** The tool error of a call refused while the plan waits for approval (the wording). */
export const NOT_APPROVED =
  'The plan is not approved yet. Only planning and read-only tools are available; finish the plan and end your turn.';

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

const refs = (tasks: readonly PlanTask[]) => tasks.map((t) => ({ id: t.id, title: t.title }));

export function approvedPayload(
  revision: number,
  tasks: readonly PlanTask[],
  comments: PlanComments,
): PlumbingOf<'plan_approved'> {
  return {
    kind: 'plan_approved',
    revision,
    taskCount: tasks.length,
    first: { id: tasks[0].id, title: tasks[0].title },
    comments: planNotes(comments, tasks),
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
