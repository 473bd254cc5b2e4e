// The texts plan review puts into a conversation, and how the transcript recognizes them:
// the quiet "Plan approved" message the agent continues with, the user's "Changes
// requested" message, and the diff of two versions of a plan.
import type { PlanComments, PlanTask } from './planContract';

export const PLAN_APPROVED = 'PLAN_APPROVED: ';

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
export const CHANGES_REQUESTED = 'PLAN_CHANGES_REQUESTED:';

export interface PlanChange {
  kind: 'added' | 'deleted' | 'renamed' | 'moved';
  id: number;
  title: string;
  /** The title before a rename. */
  from?: string;
}

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

export function describeChange(change: PlanChange): string {
  switch (change.kind) {
    case 'added':
      return `Added task ${change.id} “${change.title}”`;
    case 'deleted':
      return `Deleted task ${change.id} “${change.title}”`;
    case 'renamed':
      return `Renamed task ${change.id} from “${change.from}” to “${change.title}”`;
    case 'moved':
      return `Moved task ${change.id} “${change.title}”`;
  }
}

export function sameTasks(a: readonly PlanTask[], b: readonly PlanTask[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i].id && t.title === b[i].title);
}

function commentLines(comments: PlanComments, tasks: readonly PlanTask[]): string[] {
  const lines: string[] = [];
  for (const comment of comments.tasks) {
    const task = tasks.find((t) => t.id === comment.taskId);
    lines.push(`- On task ${comment.taskId}${task ? ` “${task.title}”` : ''}: ${comment.text}`);
  }
  if (comments.general) lines.push(`- On the plan: ${comments.general}`);
  return lines;
}

/** "mcp__memory__create_entities" reads "memory · create_entities"; other tools keep their name. */
export function callLabel(name: string): string {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? `${match[1]} · ${match[2]}` : name;
}

/** Calls grouped by tool, in first-seen order: `[{name, count}]`. */
export function callGroups<T extends { name: string }>(calls: readonly T[]): { name: string; calls: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const call of calls) {
    const group = groups.get(call.name);
    if (group) group.push(call);
    else groups.set(call.name, [call]);
  }
  return [...groups].map(([name, list]) => ({ name, calls: list }));
}

export const countCalls = (count: number) => `${count} ${count === 1 ? 'call' : 'calls'}`;

/** What the model hears about its calls that were held until this approval. */
function heldLines(held: readonly { name: string; runnable: boolean }[]): string[] {
  const runnable = callGroups(held.filter((c) => c.runnable));
  const gone = callGroups(held.filter((c) => !c.runnable));
  return [
    ...(runnable.length
      ? [
          'These calls were held until this approval and were not made; make them again now if they are still needed:',
          ...runnable.map((g) => `- ${g.name} (${countCalls(g.calls.length)})`),
        ]
      : []),
    ...(gone.length
      ? [
          'These held calls can no longer run: their tool is gone (its server disconnected or was removed):',
          ...gone.map((g) => `- ${g.name} (${countCalls(g.calls.length)})`),
        ]
      : []),
  ];
}

export function approvedMessage(
  revision: number,
  tasks: readonly PlanTask[],
  comments: PlanComments,
  held: readonly { name: string; runnable: boolean }[] = [],
): string {
  const first = tasks[0];
  const notes = commentLines(comments, tasks);
  return [
    `${PLAN_APPROVED}revision ${revision} · ${tasks.length} tasks`,
    `The user approved the plan. Carry it out now, starting with task ${first.id} “${first.title}”.`,
    ...(notes.length ? ['The user commented:', ...notes] : []),
    ...heldLines(held),
  ].join('\n');
}

export function changesRequestedMessage(
  edits: readonly PlanChange[],
  comments: PlanComments,
  tasks: readonly PlanTask[],
): string {
  const notes = commentLines(comments, tasks);
  return [
    CHANGES_REQUESTED,
    'The user reviewed the plan and asks for changes. Revise the task list with your task tools, then end your turn so the user can review it again. Do not start the work yet.',
    ...(edits.length ? ['The user edited the list:', ...edits.map((e) => `- ${describeChange(e)}`)] : []),
    ...(notes.length ? ['Comments:', ...notes] : []),
    'The list now reads:',
    ...tasks.map((t) => `${t.id}. ${t.title}`),
  ].join('\n');
}

/** `Plan approved · 5 tasks · revision 2` for an approval message, or null. */
export function approvedDivider(content: string): string | null {
  if (!content.startsWith(PLAN_APPROVED)) return null;
  const match = /^revision (\d+) · (\d+) tasks/.exec(content.slice(PLAN_APPROVED.length));
  if (!match) return 'Plan approved';
  const count = Number(match[2]);
  return `Plan approved · ${count} ${count === 1 ? 'task' : 'tasks'} · revision ${match[1]}`;
}

/** The body of a "Changes requested" message (what follows its marker), or null. */
export function changesRequestedBody(content: string): string | null {
  if (!content.startsWith(CHANGES_REQUESTED)) return null;
  return content.slice(CHANGES_REQUESTED.length).split('\n').slice(2).join('\n').trim();
}

export const PLAN_CHANGED = 'PLAN_CHANGED: ';

/** The "Plan changed" note: one line of changes, then the plan before and after. */
export function planChangedNote(
  revision: number,
  changes: readonly PlanChange[],
  before: readonly PlanTask[],
  after: readonly PlanTask[],
): string {
  return [
    `${PLAN_CHANGED}${changes.map(describeChange).join('; ')} (revision ${revision})`,
    'Before:',
    ...before.map((t, i) => `${i + 1}. ${t.title}`),
    'After:',
    ...after.map((t, i) => `${i + 1}. ${t.title}`),
  ].join('\n');
}

/** A "Plan changed" note's parts, or null for any other text. */
export function parsePlanChanged(content: string): { summary: string; before: string[]; after: string[] } | null {
  if (!content.startsWith(PLAN_CHANGED)) return null;
  const lines = content.split('\n');
  const beforeAt = lines.indexOf('Before:');
  const afterAt = lines.indexOf('After:');
  if (beforeAt < 1 || afterAt < beforeAt) return null;
  return {
    summary: lines[0].slice(PLAN_CHANGED.length),
    before: lines.slice(beforeAt + 1, afterAt),
    after: lines.slice(afterAt + 1),
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
