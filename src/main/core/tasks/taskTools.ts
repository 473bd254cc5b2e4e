// The model-facing task tools. Two styles write the same tables; a setting decides which
// one the model is offered. Handlers never throw: every failure is a result the model can
// act on, and a failed call changes nothing. docs/tools.md and task-planning.md describe
// these tools in the same words — change them together.
import { z } from 'zod';
import type { TaskToolStyle } from '../../../shared/settings';
import type { Task, TaskList } from '../../../shared/tasks';
import { defineTool, type ToolContext, type ToolDefinition } from '../tools/toolTypes';
import { createOp, deleteOp, fullListOp, updateOp, type FullListOutcome } from './taskOps';
import {
  describeIds,
  joinAnd,
  newlyUnblocked,
  progressText,
  taskNotFound,
  TASK_ID_MAX,
  normalizeTaskId,
} from './taskRules';
import { agentWho, type Changed, type TaskService } from './taskService';
import { sentence } from '../tools/argumentErrors';
import type { DraftTask } from './taskTypes';

/** "3" and "#3" as 3; anything else is left for the schema to refuse. */
const idFromText = (v: unknown) =>
  typeof v === 'string' && /^\s*#?\d+\s*$/.test(v) ? Number(v.trim().replace('#', '')) : v;
const WholeId = z.number().int().min(1).max(TASK_ID_MAX);
/** Accepts 3, "3" and "#3"; anything else reaches the handler and gets a clear error. */
const TaskId = z.preprocess(idFromText, WholeId);
const STATUS_HELP = 'pending, in_progress, completed or cancelled (also accepted: not-started, in-progress, done)';
/** The schema shows the four canonical words; synonyms are accepted and others get an error listing all. */
const Status = z.string().meta({ enum: ['pending', 'in_progress', 'completed', 'cancelled'] });
const ActiveForm = z
  .string()
  .describe('Present-continuous form shown while the task is in progress, e.g. "Writing tests"');

export const FULL_LIST_TOOLS = ['manage_todo_list'] as const;
export const GRANULAR_TOOLS = ['task_create', 'task_update', 'task_get', 'task_list', 'task_delete'] as const;
export const TASK_TOOL_NAMES: Record<TaskToolStyle, readonly string[]> = {
  'full-list': FULL_LIST_TOOLS,
  granular: GRANULAR_TOOLS,
};

/** Names of the task tools the model must not see under `style` (the other style's). */
export function hiddenTaskTools(style: TaskToolStyle): readonly string[] {
  return style === 'full-list' ? GRANULAR_TOOLS : FULL_LIST_TOOLS;
}

function guard(run: () => string, failure: (message: string) => string): string {
  try {
    return run();
  } catch (error) {
    console.error('[stepwise] task tool failed:', error);
    return failure(`Internal error: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`);
  }
}

const json = (value: unknown) => JSON.stringify(value);
const jsonError = (error: string) => json({ ok: false, error: sentence(error) });

/** Lists longer than this get a note: VS Code warns at the same size. */
export const LONG_LIST = 10;

/**
 * Models sometimes send the list as a JSON string (VS Code accepts that too). A string
 * that parses to an array is the array; anything else is left for the schema to refuse.
 */
function arrayFromJsonString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/**
 * The list as the item schema checks it: a JSON string read as the array, ids written as
 * "3" or "#3" read as numbers. One pass over the list here costs less than a preprocess
 * step per item (a third of the call's validation).
 */
function todoListInput(value: unknown): unknown {
  const list = arrayFromJsonString(value);
  if (!Array.isArray(list) || !list.some((item: { id?: unknown } | null) => typeof item?.id === 'string')) return list;
  return list.map((item: { id?: unknown } | null) =>
    typeof item?.id === 'string' ? { ...item, id: idFromText(item.id) } : item,
  );
}

/** An item's keys the schema knows; each is a string but `id`. */
const ITEM_KEYS = new Set(['id', 'title', 'description', 'activeForm', 'status']);

/**
 * manage_todo_list's arguments as models send them — `{ todoList: [...] }`, items with
 * whole-number ids, string fields and no other keys — which the schema would return
 * unchanged: those skip it (a sixth of a one-task call). Anything else is left to it.
 */
function plainTodoArguments(args: unknown): args is {
  todoList: Array<{ id: number; title: string; description?: string; activeForm?: string; status: string }>;
} {
  if (typeof args !== 'object' || args === null) return false;
  let list: unknown;
  for (const key in args) {
    if (key !== 'todoList') return false;
    list = (args as { todoList: unknown }).todoList;
  }
  if (!Array.isArray(list)) return false;
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
    const { id } = item as { id?: unknown };
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > TASK_ID_MAX) return false;
    for (const key in item) {
      if (!ITEM_KEYS.has(key) || (key !== 'id' && typeof (item as Record<string, unknown>)[key] !== 'string'))
        return false;
    }
    // title and status are required; description and activeForm may be left out.
    if (!('title' in item) || !('status' in item)) return false;
  }
  return true;
}

function taskJson(task: Task, full = false) {
  return {
    id: task.id,
    title: task.title,
    status: task.status,
    ...(task.activeForm ? { activeForm: task.activeForm } : {}),
    ...(full || task.description ? { description: task.description } : {}),
    owner: task.owner,
    blockedBy: task.blockedBy,
    ...(task.openBlockers.length ? { blocked: true, openBlockers: task.openBlockers } : {}),
  };
}

function findTask(list: TaskList | null, id: number): Task | undefined {
  return list?.tasks.find((t) => t.id === id);
}

/** The reply that made the call, when it is in this conversation (a worker's is in its own transcript). */
const replyOf = (ctx: ToolContext) =>
  (ctx.transcriptId ?? ctx.conversationId) === ctx.conversationId ? ctx.messageId : undefined;

const unblockedOf = (changed: Changed<unknown>) => newlyUnblocked(changed.before, changed.after);
const keptOf = (changed: Changed<unknown>) => (changed.kept ? { kept: changed.kept } : {});

export function fullListResult(changed: Changed<FullListOutcome>): string {
  const { list, value, startedNew } = changed;
  if (!list) return 'Task list cleared: it had no items left, so it was closed.';
  const lines = [`Task list updated: ${progressText(list.tasks)}`];
  if (changed.kept) lines.push(changed.kept);
  if (startedNew) lines.push('Started a new task list; the finished one was closed and kept in history.');
  const missing = value.missing.filter((t) => !list.tasks.some((kept) => kept.id === t.id));
  if (missing.length) {
    const named = joinAnd(missing.map((t) => `${t.id} "${t.title}"`));
    const were = missing.length === 1 ? 'was' : 'were';
    lines.push(
      `Warning: task${missing.length === 1 ? '' : 's'} ${named} ${were} in the list but ${missing.length === 1 ? 'is' : 'are'} missing from this call, ` +
        `so ${missing.length === 1 ? 'it was' : 'they were'} removed. Send the complete list every time; if that was a mistake, call manage_todo_list again with ${missing.length === 1 ? 'it' : 'them'} included.`,
    );
  }
  if (value.statusChanged.length > 3) {
    lines.push(
      `Warning: ${value.statusChanged.length} tasks changed status in one call (${describeIds(value.statusChanged)}). ` +
        'Mark each task completed as soon as it is done, not several at once.',
    );
  }
  if (list.tasks.length > LONG_LIST) {
    lines.push(
      `Note: the list has ${list.tasks.length} items. Lists of more than ${LONG_LIST} are hard to follow; ` +
        'group small steps into larger tasks and keep the list focused.',
    );
  }
  if (list.tasks.length < 3) {
    lines.push(
      `Note: the list has fewer than 3 items. A task list is for work with 3 or more steps; for smaller work, skip it.`,
    );
  }
  const unblocked = unblockedOf(changed);
  if (unblocked.length) lines.push(`Now unblocked: ${joinAnd(unblocked.map(String))}.`);
  return lines.join('\n');
}

export function createTaskTools(tasks: TaskService): ToolDefinition[] {
  const manageTodoList = defineTool({
    name: 'manage_todo_list',
    description:
      'Plan and track multi-step work as a task list the user sees live. Send the COMPLETE list on every call ' +
      '(it replaces the current one; items you leave out are removed). Each item: id (number, 1, 2, 3…, keep ids stable), ' +
      `title (3–7 words), status (${STATUS_HELP}), optional activeForm and description. ` +
      'Keep exactly one task in_progress while you work, and mark each task completed as soon as it is done — not in batches. ' +
      'Use it for work with 3 or more steps; skip it for simple requests.',
    parameters: z.object({
      todoList: z
        .preprocess(
          todoListInput,
          z.array(
            z.object({
              id: WholeId.describe('Task id: 1, 2, 3… Keep the same id for the same task across calls.'),
              title: z.string().describe('Short action label, 3–7 words'),
              description: z.string().optional().describe('Optional detail: what done looks like'),
              activeForm: ActiveForm.optional(),
              status: Status.describe(STATUS_HELP),
            }),
          ),
        )
        .describe('The complete task list, in order. Items missing from it are removed.'),
    }),
    accepts: plainTodoArguments,
    handler: ({ todoList }, ctx: ToolContext) =>
      guard(
        () => {
          if (todoList.length === 0 && !tasks.get(ctx.conversationId))
            return 'There is no open task list; nothing to clear.';
          const who = agentWho(ctx.agentId);
          const result = tasks.change(ctx.conversationId, who, fullListOp(todoList, who), {
            userEditsWin: 'full',
            messageId: replyOf(ctx),
          });
          return result.ok
            ? fullListResult(result.value)
            : `Error: ${sentence(result.error)} The task list was not changed.`;
        },
        (message) => `Error: ${message}`,
      ),
  });

  const taskCreate = defineTool({
    name: 'task_create',
    description:
      'Add a task to the end of the task list the user sees (the first call starts a list; ids are assigned 1, 2, 3…). ' +
      'Use it to plan work with 3 or more steps; skip task tools for simple requests. New tasks are pending. ' +
      'blockedBy lists ids of tasks that must be completed first.',
    parameters: z.object({
      title: z.string().describe('Short action label, 3–7 words'),
      description: z.string().optional().describe('Optional detail: what done looks like'),
      activeForm: ActiveForm.optional(),
      blockedBy: z.array(TaskId).optional().describe('Ids of tasks that must be completed before this one can start'),
    }),
    handler: (args, ctx: ToolContext) =>
      guard(() => {
        const who = agentWho(ctx.agentId);
        const result = tasks.change(ctx.conversationId, who, createOp(args, who, { newListWhenFinished: true }), {
          userEditsWin: 'partial',
          messageId: replyOf(ctx),
        });
        if (!result.ok) return jsonError(result.error);
        const task = findTask(result.value.list, result.value.value.id);
        if (!task) return json({ ok: true, task: null, ...keptOf(result.value) });
        const note = result.value.startedNew
          ? { note: 'Started a new task list; the finished one was closed and kept in history.' }
          : {};
        return json({
          ok: true,
          task: taskJson(task),
          progress: progressText(result.value.list!.tasks),
          ...note,
          ...keptOf(result.value),
        });
      }, jsonError),
  });

  const taskUpdate = defineTool({
    name: 'task_update',
    description:
      `Change one task: status (${STATUS_HELP}), title, description, activeForm, or its dependencies ` +
      '(addBlockedBy / removeBlockedBy: ids of tasks that must be completed first). Keep exactly one task in_progress while you work ' +
      'and mark each task completed as soon as it is done. A task with an unfinished blocker cannot start or complete; ' +
      'completing a blocker frees the tasks it blocked.',
    parameters: z.object({
      taskId: TaskId,
      status: Status.optional().describe(STATUS_HELP),
      title: z.string().optional(),
      description: z.string().optional(),
      activeForm: ActiveForm.optional(),
      addBlockedBy: z.array(TaskId).optional(),
      removeBlockedBy: z.array(TaskId).optional(),
    }),
    handler: (args, ctx: ToolContext) =>
      guard(() => {
        const who = agentWho(ctx.agentId);
        const result = tasks.change(ctx.conversationId, who, updateOp(args, who), {
          userEditsWin: 'partial',
          messageId: replyOf(ctx),
        });
        if (!result.ok) return jsonError(result.error);
        const list = result.value.list!;
        const unblocked = unblockedOf(result.value);
        return json({
          ok: true,
          task: taskJson(findTask(list, result.value.value.id)!),
          ...(result.value.value.changed.length ? {} : { note: 'Nothing changed.' }),
          ...(unblocked.length ? { unblocked } : {}),
          progress: progressText(list.tasks),
          ...keptOf(result.value),
        });
      }, jsonError),
  });

  const taskGet = defineTool({
    name: 'task_get',
    description: 'Read one task of the task list with its description, status, owner and dependencies.',
    parameters: z.object({ taskId: TaskId }),
    handler: ({ taskId }, ctx: ToolContext) =>
      guard(() => {
        const id = normalizeTaskId(taskId);
        if (!id.ok) return jsonError(id.error);
        const list = tasks.get(ctx.conversationId);
        const task = findTask(list, id.value);
        if (!task) return jsonError(taskNotFound(id.value, list?.tasks.map((t) => t.id) ?? []));
        const blocks = list!.tasks.filter((t) => t.blockedBy.includes(task.id)).map((t) => t.id);
        return json({ ok: true, task: { ...taskJson(task, true), blocks } });
      }, jsonError),
  });

  const taskList = defineTool({
    name: 'task_list',
    description:
      'Read the whole task list: every task with its id, status, owner and dependencies, and the progress. Takes no arguments.',
    parameters: z.object({}),
    handler: (_args, ctx: ToolContext) =>
      guard(() => {
        const list = tasks.get(ctx.conversationId);
        if (!list) return json({ ok: true, tasks: [], note: 'There is no open task list. task_create starts one.' });
        return json({ ok: true, tasks: list.tasks.map((t) => taskJson(t)), progress: progressText(list.tasks) });
      }, jsonError),
  });

  const taskDelete = defineTool({
    name: 'task_delete',
    description:
      'Remove a task from the task list (for a step that is no longer needed; to record a dropped step, set status cancelled instead). Tasks it blocked lose that dependency.',
    parameters: z.object({ taskId: TaskId }),
    handler: ({ taskId }, ctx: ToolContext) =>
      guard(() => {
        const result = tasks.change(ctx.conversationId, agentWho(ctx.agentId), deleteOp(taskId), {
          userEditsWin: 'partial',
          messageId: replyOf(ctx),
        });
        if (!result.ok) return jsonError(result.error);
        const removed: DraftTask = result.value.value.removed;
        const unblocked = unblockedOf(result.value);
        const stays = result.value.after.some((t) => t.id === removed.id);
        return json({
          ok: true,
          deleted: stays ? null : { id: removed.id, title: removed.title },
          ...keptOf(result.value),
          ...(unblocked.length ? { unblocked } : {}),
          progress: result.value.list
            ? progressText(result.value.list.tasks)
            : 'The list is empty now, so it was closed.',
        });
      }, jsonError),
  });

  // Planning is what these tools are for: they run while a plan waits for approval.
  return [manageTodoList, taskCreate, taskUpdate, taskGet, taskList, taskDelete].map((tool) => ({
    ...tool,
    safeWhilePlanning: true,
  })) as ToolDefinition[];
}
