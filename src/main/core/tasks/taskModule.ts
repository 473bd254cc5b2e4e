// Puts task lists into the core: the service, the sidebar badge, the model's tools (one
// style at a time, following the setting), the prompt section, the chat engine's hooks
// and the contract handlers.
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import type { ClearEvent } from '../llm/chatEvents';
import { DisposableStore, type Event } from '../../../shared/event';
import type { PromptProvider } from '../llm/promptTypes';
import type { ToolDefinition } from '../tools/toolTypes';
import type { TaskToolStyle } from '../../../shared/settings';
import { createTaskPromptProvider } from './taskPrompt';
import { createTaskService, USER } from './taskService';
import { createTaskTools, TASK_TOOL_NAMES } from './taskTools';
import { taskHandlers } from './taskHandlers';
import { createBranchLists } from './branchLists';

export interface TaskModuleDeps {
  db: Db;
  bus: EventBus;
  now?: () => number;
  conversations: ConversationRepo;
  taskToolStyle: () => TaskToolStyle;
  /** Path of a user's own task-planning guidance (data dir); used when the file exists. */
  planningOverride?: string | null;
  tools: { register(tool: ToolDefinition): () => void };
  prompts: { add(provider: PromptProvider): () => void };
  chat: { onClear: Event<ClearEvent> };
}

export function createTasks(deps: TaskModuleDeps) {
  const { db, bus, conversations } = deps;
  const disposables = new DisposableStore();
  const tasks = createTaskService({ db, bus, now: deps.now });
  conversations.setTaskBadgeLookup((ids) => tasks.badges(ids));

  // Only the chosen style's tools are registered; a settings change swaps them before the next request.
  const all = createTaskTools(tasks);
  let style: TaskToolStyle | null = null;
  let unregister: Array<() => void> = [];
  function offer(next: TaskToolStyle) {
    if (next === style) return;
    for (const remove of unregister) remove();
    unregister = all
      .filter((tool) => TASK_TOOL_NAMES[next].includes(tool.name))
      .map((tool) => deps.tools.register(tool));
    style = next;
  }
  offer(deps.taskToolStyle());
  const branches = createBranchLists({ db, bus, tasks, now: deps.now });
  bus.on('settings:changed', () => offer(deps.taskToolStyle()), disposables);
  // Emitted as soon as a user message is stored, before any run it starts changes the list.
  bus.on(
    'messages:changed',
    ({ conversationId, message }) => {
      if (message.role === 'user') branches.snapshot(conversationId, message.id);
    },
    disposables,
  );

  deps.prompts.add(
    createTaskPromptProvider({ tasks, style: deps.taskToolStyle, planningOverride: deps.planningOverride ?? null }),
  );
  deps.chat.onClear(({ conversationId, said }) => {
    if (tasks.close(conversationId, USER, 'clear-command'))
      said.push('The task list was closed (it is kept in the history).');
  }, disposables);

  // The service itself is the capability (`core.tasks.get(id)`); shutdown is `dispose`
  // because the service's own `close(id, who, reason)` closes a list.
  return {
    ...tasks,
    /** Each branch of the message tree keeps its own list (versions/ calls these). */
    branches,
    handlers: taskHandlers({ tasks, conversations }),
    /** The style whose tools the model is offered right now. */
    style: () => style,
    dispose: () => disposables.dispose(),
  };
}

export type Tasks = ReturnType<typeof createTasks>;
