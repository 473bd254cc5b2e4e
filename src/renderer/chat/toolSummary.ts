// One quiet line per plumbing tool call ("Updated tasks · 2/5 done", "Started worker 2 ·
// Count north basket", "Thought for a moment"), read from the call's arguments and result.
// Other tools keep the plain "name, state" line. Pure, so it is cheap for every card.
import type { Message, ToolCall, ToolResultOutcome } from '../../shared/domain';
import { NOT_APPROVED } from '../../shared/planText';

/** A tool call as a card shows it: the call and its result message, once there is one. */
export interface ToolCallView {
  call: ToolCall;
  result: Message | null;
  /** A task-tool call that started a list ("Planned 5 tasks" rather than "Updated tasks"). */
  planned?: boolean;
}

export type CardIcon = 'tasks' | 'worker' | 'thought' | 'tool';

export interface ToolSummary {
  icon: CardIcon;
  /** The one visible line; null for a tool without a quiet label (the card shows its name). */
  label: string | null;
}

const TASK_TOOLS = new Set(['manage_todo_list', 'task_create', 'task_update', 'task_get', 'task_list', 'task_delete']);
export const isTaskTool = (name: string) => TASK_TOOLS.has(name);

function parse(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Tool results that report a failure (the registry's and the tools' own wording). */
export function isFailure(content: string): boolean {
  return (
    /^(Error:|Invalid arguments|Unknown tool|Tool \S+ failed)/.test(content) ||
    content === NOT_APPROVED ||
    parse(content)?.ok === false
  );
}

const DENIED = 'The user denied this call.';

/**
 * How a call ended: as recorded with its result. Only results stored before outcomes
 * were recorded (they have none) are read from their text, as they always were.
 */
export function resultOutcome(result: Pick<Message, 'content' | 'outcome' | 'toolName'>): ToolResultOutcome {
  // Stepwise's own tools (never an MCP server's) answer a refusal as {"ok": false}.
  if (result.outcome === 'ok' && !result.toolName?.startsWith('mcp__') && parse(result.content)?.ok === false)
    return 'error';
  if (result.outcome) return result.outcome;
  if (result.content.startsWith('cancelled')) return 'cancelled';
  if (result.content === DENIED) return 'denied';
  if (result.content.startsWith('Not run')) return 'not_run';
  return isFailure(result.content) ? 'error' : 'ok';
}

function oneLine(text: string, max = 60): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

const DONE = new Set(['completed', 'done']);
const CANCELLED = new Set(['cancelled']);

function todoListOf(args: Record<string, unknown> | null): Array<{ status?: unknown; title?: unknown }> | null {
  let list = args?.todoList;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return null;
    }
  }
  return Array.isArray(list) ? (list as Array<{ status?: unknown }>) : null;
}

function taskLabel(view: ToolCallView, planned: boolean): string {
  const args = parse(view.call.arguments);
  const id = args?.taskId ?? args?.id;
  switch (view.call.name) {
    case 'manage_todo_list': {
      const list = todoListOf(args);
      if (!list) return 'Updating tasks';
      if (!list.length) return 'Cleared the task list';
      if (planned) return `Planned ${list.length} task${list.length === 1 ? '' : 's'}`;
      // The list as stored (the result says it: user edits may have been kept) wins over the call.
      const stored = view.result ? /^Task list updated: (\d+)\/(\d+) completed/.exec(view.result.content) : null;
      if (stored) return `Updated tasks · ${stored[1]}/${stored[2]} done`;
      const counted = list.filter((t) => !CANCELLED.has(String(t.status)));
      const done = counted.filter((t) => DONE.has(String(t.status))).length;
      return `Updated tasks · ${done}/${counted.length} done`;
    }
    case 'task_create':
      return typeof args?.title === 'string' ? `Added task · ${oneLine(args.title)}` : 'Added a task';
    case 'task_update':
      return `Updated task ${String(id ?? '')}${typeof args?.status === 'string' ? ` · ${args.status.replace('_', ' ')}` : ''}`;
    case 'task_get':
      return `Read task ${String(id ?? '')}`.trim();
    case 'task_list':
      return 'Read the task list';
    default:
      return `Deleted task ${String(id ?? '')}`.trim();
  }
}

/**
 * `planned`: this task-tool call is the one that started a list (the first in the
 * transcript, or the first after the list was cleared).
 */
export function summarize(view: ToolCallView, planned: boolean): ToolSummary {
  const { call, result } = view;
  const failed = result ? resultOutcome(result) === 'error' : false;
  if (call.name === 'think') return { icon: 'thought', label: 'Thought for a moment' };
  if (isTaskTool(call.name)) {
    if (failed) return { icon: 'tasks', label: 'Task change refused' };
    return { icon: 'tasks', label: taskLabel(view, planned) };
  }
  if (call.name === 'start_task') {
    const args = parse(call.arguments);
    const what = typeof args?.task_description === 'string' ? oneLine(args.task_description) : '';
    const worker = result ? parse(result.content)?.worker : undefined;
    if (failed) return { icon: 'worker', label: `Could not start a worker${what ? ` · ${what}` : ''}` };
    const who = typeof worker === 'number' ? `Started worker ${worker}` : 'Starting a worker';
    return { icon: 'worker', label: what ? `${who} · ${what}` : who };
  }
  return { icon: 'tool', label: null };
}

/** Which task-tool calls started a list: see `summarize`. `listOpen`: one may be open before the first call. */
export function plannedCalls(views: Iterable<ToolCallView>, listOpen = false): Set<string> {
  const planned = new Set<string>();
  let open = listOpen;
  for (const { call, result } of views) {
    // A call still running counts as going through; a refused one changed nothing.
    if (!isTaskTool(call.name) || (result && resultOutcome(result) === 'error')) continue;
    if (call.name === 'task_get' || call.name === 'task_list') continue;
    if (!open && (call.name === 'manage_todo_list' || call.name === 'task_create')) planned.add(call.id);
    open = !result?.content.startsWith('Task list cleared');
  }
  return planned;
}
