// Puts workers into the core: the manager, its tools, its prompt sections, the contract
// handlers.
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { MessageRepo } from '../conversations/messageRepo';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { DisposableStore } from '../../../shared/event';
import type { ChatEngine } from '../llm/chatEngine';
import type { PromptRegistry } from '../llm/systemPrompt';
import type { SettingsService } from '../settings/settingsService';
import type { Questions } from '../questions/questionModule';
import type { TaskService } from '../tasks/taskService';
import type { ToolRegistry } from '../tools/toolRegistry';
import { createWorkerManager } from './workerManager';
import { createWorkerPromptProvider } from './workerPrompt';
import { createWorkerRepo } from './workerRepo';
import { createWorkerTools } from './workerTools';
import type { HandlersFor } from '../../../shared/contract';
import type { workerCalls } from '../../../shared/workersContract';

export function createWorkers(deps: {
  db: Db;
  bus: EventBus;
  messages: MessageRepo;
  conversations: ConversationRepo;
  tasks: TaskService;
  chat: ChatEngine;
  questions: Questions;
  tools: ToolRegistry;
  prompts: PromptRegistry;
  settings: SettingsService;
  now?: () => number;
  log?: (line: string) => void;
}) {
  const disposables = new DisposableStore();
  const repo = createWorkerRepo(deps.db, deps.now);
  const workers = createWorkerManager({
    disposables,
    bus: deps.bus,
    messages: deps.messages,
    conversations: deps.conversations,
    repo,
    tasks: deps.tasks,
    chat: deps.chat,
    questions: deps.questions,
    concurrency: () => deps.settings.effective().workerConcurrency,
    now: deps.now,
    log: deps.log,
  });
  for (const tool of createWorkerTools({ workers, tasks: deps.tasks })) deps.tools.register(tool);
  deps.prompts.add(createWorkerPromptProvider(workers));
  deps.chat.onActivity(({ conversationId, agentId, activity }) => {
    if (agentId !== 'main') workers.setActivity(conversationId, activity);
  }, disposables);

  // A question asked or answered changes the worker's ⚠ marker.
  deps.questions.onChange(({ conversationId }) => {
    if (workers.active(conversationId)) workers.refresh(conversationId);
  }, disposables);

  const handlers: HandlersFor<typeof workerCalls> = {
    'workers:list': ({ conversationId }) => workers.list(conversationId),
  };
  return { ...workers, handlers, dispose: () => disposables.dispose() };
}

export type Workers = ReturnType<typeof createWorkers>;
