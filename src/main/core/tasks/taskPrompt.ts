// What the model reads about its task list before every request: the planning guidance,
// the open list as a `<taskList>` block, and one line saying what the user changed since
// the last request. It lives in the system prompt, so trimming old history never drops it.
import type { TaskToolStyle } from '../../../shared/settings';
import type { TaskList, TaskStatus } from '../../../shared/tasks';
import { handedBackLabel } from '../../../shared/taskProgress';
import type { PromptContext, PromptProvider } from '../llm/promptTypes';
import { guidanceFor, planningSource } from './taskPlanning';
import { joinAnd, progressText } from './taskRules';
import { EXTERNAL_PREFIX, speaksForUser, type TaskService } from './taskService';
import type { EventRow } from './taskTypes';

export function renderTaskListBlock(list: TaskList | null): string | null {
  if (!list || list.tasks.length === 0) return null;
  const lines = list.tasks.map((task) => {
    let line = `- [${task.status}] (${task.id}) ${task.title}`;
    if (task.status === 'in_progress' && task.activeForm) line += ` — ${task.activeForm}`;
    if (task.openBlockers.length) line += ` [blocked by ${task.openBlockers.join(', ')}]`;
    const handedBack = handedBackLabel(task);
    if (handedBack) line += ` [${handedBack} to you]`;
    else if (task.owner !== 'main') line += ` [owner: ${task.owner}]`;
    return line;
  });
  return ['<taskList>', ...lines, `Progress: ${progressText(list.tasks)}`, '</taskList>'].join('\n');
}

const STATUS_WORDS: Record<TaskStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  cancelled: 'cancelled',
};

interface TaskTrace {
  order: number;
  created: boolean;
  deleted: boolean;
  firstStatus?: TaskStatus;
  lastStatus?: TaskStatus;
  firstTitle?: string;
  lastTitle?: string;
}

function parse(text: string | null): Record<string, unknown> {
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * One sentence per actor summing up the changes the user (and agents acting for them over
 * the task-share endpoint) made in these events, net effect per task: `The user marked
 * task 3 completed and renamed task 4.` or `claude-code (another agent, over MCP) marked
 * task 2 completed.` Null when there are none.
 */
export function describeUserChanges(events: readonly EventRow[]): string | null {
  const actors = [...new Set(events.filter((e) => speaksForUser(e.actor)).map((e) => e.actor))];
  const sentences = actors.map((actor) => describeChangesBy(events, actor)).filter((s): s is string => s !== null);
  return sentences.length ? sentences.join(' ') : null;
}

function subjectOf(actor: string): string {
  return actor === 'user' ? 'The user' : `${actor.slice(EXTERNAL_PREFIX.length)} (another agent, over MCP)`;
}

function describeChangesBy(events: readonly EventRow[], actor: string): string | null {
  let traces = new Map<string, TaskTrace>();
  let cleared = false;
  let reordered = false;
  let order = 0;
  for (const event of events) {
    if (event.actor !== actor) continue;
    const before = parse(event.before);
    const after = parse(event.after);
    if (event.kind === 'closed') {
      if (after.reason === 'clear-tasks') {
        traces = new Map();
        reordered = false;
        cleared = true;
      }
      continue;
    }
    if (event.kind === 'reordered') {
      reordered = true;
      continue;
    }
    const id = Number((event.kind === 'deleted' ? before : after).id);
    if (!Number.isInteger(id)) continue;
    const key = `${event.list_id}:${id}`;
    const trace = traces.get(key) ?? { order: order++, created: false, deleted: false };
    traces.set(key, trace);
    if (event.kind === 'created') trace.created = true;
    if (event.kind === 'deleted') trace.deleted = true;
    if (event.kind === 'updated') {
      if (typeof after.status === 'string') {
        trace.firstStatus ??= before.status as TaskStatus;
        trace.lastStatus = after.status as TaskStatus;
      }
      if (typeof after.title === 'string') {
        trace.firstTitle ??= before.title as string;
        trace.lastTitle = after.title;
      }
    }
  }

  // Phrases with the same wording are merged: "marked tasks 3 and 5 completed".
  const groups = new Map<string, { ids: number[]; render: (ids: string) => string }>();
  const add = (key: string, id: number, render: (ids: string) => string) => {
    const group = groups.get(key) ?? { ids: [], render };
    group.ids.push(id);
    groups.set(key, group);
  };
  const sorted = [...traces.entries()].sort((a, b) => a[1].order - b[1].order);
  for (const [key, trace] of sorted) {
    const id = Number(key.split(':')[1]);
    if (trace.created && trace.deleted) continue;
    if (trace.deleted) add('deleted', id, (ids) => `deleted ${ids}`);
    else if (trace.created) add('added', id, (ids) => `added ${ids}`);
    else {
      if (trace.lastStatus && trace.lastStatus !== trace.firstStatus) {
        const word = STATUS_WORDS[trace.lastStatus] ?? trace.lastStatus;
        add(`status:${word}`, id, (ids) => `marked ${ids} ${word}`);
      }
      if (trace.lastTitle !== undefined && trace.lastTitle !== trace.firstTitle)
        add('renamed', id, (ids) => `renamed ${ids}`);
    }
  }
  const phrases = [...groups.values()].map((g) =>
    g.render(`${g.ids.length === 1 ? 'task' : 'tasks'} ${joinAnd(g.ids.map(String))}`),
  );
  if (reordered) phrases.push('reordered the tasks');
  if (cleared) phrases.unshift('cleared the task list');
  return phrases.length ? `${subjectOf(actor)} ${joinAnd(phrases)}.` : null;
}

export interface TaskPromptDeps {
  tasks: TaskService;
  style: () => TaskToolStyle;
  /** A user's own task-planning.md that replaces the shipped guidance, if present. */
  planningOverride?: string | null;
}

/**
 * The task section of the system prompt. The user-change line is consumed once the
 * request that carried it was sent (afterRequest), and only by the conversation's own agent.
 */
export function createTaskPromptProvider(deps: TaskPromptDeps): PromptProvider {
  const { tasks } = deps;
  const shown = new Map<string, number>();
  return {
    systemSection(ctx: PromptContext): string | null {
      const sections = [guidanceFor(deps.style(), planningSource(deps.planningOverride ?? null))];
      const block = renderTaskListBlock(tasks.get(ctx.conversationId));
      if (block) sections.push(block);
      if (ctx.agentId === 'main') {
        const mark = tasks.store.noticeMark(ctx.conversationId);
        const events = tasks.store.eventsAfter(ctx.conversationId, mark);
        const notice = describeUserChanges(events);
        if (notice) sections.push(notice);
        if (events.length) shown.set(ctx.conversationId, events.at(-1)!.id);
      }
      return sections.join('\n\n');
    },
    afterRequest(ctx: PromptContext): void {
      const upTo = shown.get(ctx.conversationId);
      if (upTo === undefined || ctx.agentId !== 'main') return;
      shown.delete(ctx.conversationId);
      tasks.store.setNoticeMark(ctx.conversationId, upTo);
    },
  };
}
