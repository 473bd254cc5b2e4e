// Composes the core: database, repositories, settings, handlers and the event bus.
// Both hosts (Electron and the browser host) call this and only add a transport.
import path from 'node:path';
import type { Handlers } from './ipc/dispatcher';
import { createDispatcher } from './ipc/dispatcher';
import { createEventBus } from './ipc/eventBus';
import { movedAsideNotice, openDatabase } from './db/openDatabase';
import { loopbackRequest, warmUpSend } from './llm/sendWarmUp';
import { createConversations } from './conversations/conversationsModule';
import { createNotices } from './notices/noticesModule';
import { createExport } from './export/exportModule';
import { settingsResetNotice } from './settings/settingsFile';
import { createSettingsService } from './settings/settingsService';
import { createToolRegistry } from './tools/toolRegistry';
import { currentTimeTool } from './tools/builtinTools';
import { createPromptRegistry } from './llm/systemPrompt';
import { defaultEngineOptions, type ChatEngineOptions } from './llm/agentLoop';
import { createChat } from './llm/chatModule';
import { createTasks } from './tasks/taskModule';
import { createBoard } from './board/boardModule';
import { createAutopilot } from './autopilot/autopilotModule';
import { createWorkers } from './agents/workerModule';
import { createQuestions } from './questions/questionModule';
import { PLANNING_OVERRIDE_FILE } from './tasks/taskPlanning';
import { createApprovals } from './approvals/approvalsModule';
import { createMcp } from './mcp/mcpModule';
import { createToolOutputs } from './mcp/toolOutputs';
import { createProviders } from './providers/providersModule';
import { extraSecretSlot } from './providers/profileKeys';
import { createTokenCounter } from './context/tokenCount';
import { createStoredTokens } from './conversations/storedTokens';
import { openDataDir, type DataDirLock } from './storage/openDataDir';
import { exposedKeyNotice } from './settings/fileSecretStore';
import { createAppInfo } from './app/appModule';
import { createStopAll } from './stop/stopModule';
import { createDrafts } from './drafts/draftModule';
import { createLedger } from './ledger/ledgerModule';
import { createInstructions } from './instructions/instructionsModule';
import { createFolders } from './folders/folderModule';
import { createVersions } from './versions/versionsModule';
import { createAttachments } from './attachments/attachmentsModule';
import { createContinuity } from './continuity/continuityModule';
import { createTaskShare } from './taskShare/taskShareModule';
import { createPlans } from './plans/planModule';
import { createRoutines } from './routines/routinesModule';
import type { CoreOptions } from './coreOptions';
import { DisposableStore, toDisposable, type Disposable } from '../../shared/event';

export type { CoreOptions } from './coreOptions';

export function createCore(options: CoreOptions) {
  const lock = options.instanceLock ?? openDataDir(options.dataDir, HOST_NAMES[options.host]);
  try {
    return composeCore(options, lock);
  } catch (error) {
    lock.release({ clean: false });
    throw error;
  }
}

const HOST_NAMES = { electron: 'the desktop app', browser: 'the browser host' } as const;

function composeCore(options: CoreOptions, lock: DataDirLock) {
  // Everything with a lifetime is added here as it is made: close disposes it in reverse,
  // so each module goes before the modules it was built on, and the database and the bus last.
  const lifecycle = new DisposableStore();
  try {
    return composeModules(options, lock, lifecycle);
  } catch (error) {
    try {
      lifecycle.dispose();
    } catch {
      // The first error says what went wrong.
    }
    throw error;
  }
}

function composeModules(options: CoreOptions, lock: DataDirLock, lifecycle: DisposableStore) {
  const own = <M extends Disposable>(module: M): M => lifecycle.add(module);
  const now = options.now ?? Date.now;
  const bus = own(createEventBus({ check: options.checkEvents ?? false }));
  const notices = createNotices(bus);
  const { db, movedAside } = openDatabase(options.dataDir, { uncleanShutdown: lock.uncleanShutdown });
  own(toDisposable(() => db.close()));
  notices.addAll([
    movedAsideNotice(movedAside),
    exposedKeyNotice(options.dataDir, lock.madePrivate),
    settingsResetNotice(options.preparedSettings),
  ]);

  const attachments = createAttachments({ db, dataDir: options.dataDir, now });
  const tokens = createTokenCounter();
  const storedTokens = own(createStoredTokens(db, tokens));
  const conversations = createConversations({ db, bus, now, files: attachments.links, counts: storedTokens.counts });
  const { messages } = conversations;
  attachments.collect();
  const settings = createSettingsService(options.settingsBackend);
  const questions = own(createQuestions({ bus, now }));
  const tools = own(createToolRegistry());
  tools.register(currentTimeTool(now));
  const chatOptions: ChatEngineOptions = { ...defaultEngineOptions, ...options.chat };
  const clientOptions = {
    requestTimeoutMs: chatOptions.requestTimeoutMs,
    maxRetries: chatOptions.maxRetries,
    log: chatOptions.log,
  };
  const providers = createProviders({
    settings,
    secrets: options.secrets,
    env: options.env,
    conversations,
    messages,
    bus,
    client: clientOptions,
  });
  const prompts = createPromptRegistry(chatOptions.log);
  const ledger = createLedger({ db, bus, conversations, now });
  const toolOutputs = createToolOutputs(db);
  tokens.warmUp();
  const chat = createChat({
    db,
    messages,
    conversations,
    bus,
    tools,
    prompts,
    settings,
    providers,
    tokens,
    options: chatOptions,
    toolCalls: ledger.observer,
    toolImages: toolOutputs.images,
    attachments,
  });
  own(chat);
  // Runs after start-up, when every module has registered its tools and prompt sections;
  // cancelled if the core closes first (a test, a failed start).
  own(
    toDisposable(
      warmUpSend({
        count: tokens.countOnly,
        write: conversations.warmUpWrite,
        turn: chat.warmUpTurn,
        connection: () => providers.defaultModel(),
        request: loopbackRequest,
      }),
    ),
  );
  const tasks = createTasks({
    db,
    bus,
    now,
    conversations,
    taskToolStyle: () => settings.effective().taskToolStyle,
    planningOverride: path.join(options.dataDir, PLANNING_OVERRIDE_FILE),
    tools,
    prompts,
    chat,
  });
  own(tasks);
  const board = own(createBoard({ db, bus, conversations }));
  const plans = createPlans({
    db,
    bus,
    now,
    settings,
    tasks,
    messages,
    chat,
    tools,
    prompts,
  });
  own(plans);
  // Default: a task in progress under a worker's owner id is the worker's; the workers
  // module may pass a sharper `isTaskDelegated`.
  const autopilot = createAutopilot({
    db,
    bus,
    chat,
    tasks,
    messages,
    settings,
    assessorConnection: (conversationId) => providers.forConversation(conversationId, 'assessor'),
    client: clientOptions,
    holds: plans.holds,
    onPlanApproved: plans.onApproved,
  });
  own(autopilot);
  // Before the workers module: it marks the workers a previous process left running as stopped.
  const continuity = createContinuity({ db, bus, now, chat, tasks, autopilotOn: (id) => autopilot.state(id).enabled });
  own(continuity);
  const workers = createWorkers({
    db,
    bus,
    messages,
    conversations,
    tasks,
    chat,
    questions,
    tools,
    prompts,
    settings,
    now,
    log: chatOptions.log,
  });
  own(workers);
  // After the chat engine: on close it is marked closed before the loops are aborted, so a
  // call waiting for approval keeps its row (the next start reports it as not run).
  const approvals = own(createApprovals({ db, bus, messages, now, questions }));
  approvals.recover();

  const mcp = createMcp({
    dataDir: options.dataDir,
    db,
    bus,
    notices,
    tools,
    approvals,
    questions,
    outputs: toolOutputs,
    version: options.version,
    autoAllowReadOnly: () => settings.effective().autoAllowReadOnly,
    rootFolders: () => settings.effective().mcpRoots,
    sendMessage: (conversationId, text) => void chat.send(conversationId, text, 'user'),
    ledgerTaskOf: ledger.runningTask,
    sendGiven: (conversationId, given, create) => void chat.sendGiven(conversationId, given, create),
    // Sign-in tokens of remote MCP servers, beside the API keys in the one secret.
    oauthSecrets: extraSecretSlot(options.secrets, 'mcpOAuth'),
    oauthCallbackPort: options.mcpSignIn?.callbackPort,
    signInTimeoutMs: options.mcpSignIn?.timeoutMs,
    signInRequestTimeoutMs: options.mcpSignIn?.requestTimeoutMs,
    log: chatOptions.log,
  });
  own(mcp);
  prompts.add(mcp.prompt);
  const drafts = createDrafts({ db, now });
  const folders = createFolders({ db, bus, conversations, now });
  const versions = createVersions({ db, bus, messages, conversations, chat, branches: tasks.branches });
  versions.recover();
  const taskShare = createTaskShare({
    db,
    bus,
    dataDir: options.dataDir,
    version: options.version,
    settings,
    secrets: options.secrets,
    tasks,
    conversations,
    folders,
    messages,
    isRunning: (id) => chat.status(id).running,
    log: chatOptions.log,
  });
  own(taskShare);
  const instructions = createInstructions({ db, now, prompts, systemPrompt: () => settings.effective().systemPrompt });
  const stopAll = createStopAll({ autopilot, approvals, workers, questions, continuity, chat });
  const routines = createRoutines({
    db,
    bus,
    clock: options.routineClock,
    timeZone: options.routineTimeZone,
    state: { approvals, questions, chat, autopilot, workers, plans, tasks, messages },
    onTurnEnd: chat.onTurnEnd,
    approvals,
    stop: stopAll.stop,
    conversations,
    conversationTitle: (id) => conversations.get(id)?.title ?? null,
    folders,
    setPlanReview: (id, mode) => void plans.store.setMode(id, mode),
    chat,
    profileIds: () => providers.view().profiles.map((p) => p.id),
    requestsDir: options.dataDir,
    log: chatOptions.log,
  });
  own(routines);

  const exporting = createExport({
    db,
    bus,
    conversations,
    folders,
    fileDialogs: options.fileDialogs,
    now,
    attachments,
  });

  const handlers: Handlers = {
    ...createAppInfo({ version: options.version, host: options.host, dataDir: options.dataDir }).handlers,
    ...notices.handlers,
    ...conversations.handlers,
    ...chat.handlers,
    ...providers.handlers,
    ...tasks.handlers,
    ...board.handlers,
    ...exporting.handlers,
    ...workers.handlers,
    ...questions.handlers,
    ...autopilot.handlers,
    ...mcp.handlers,
    ...approvals.handlers,
    ...drafts.handlers,
    ...ledger.handlers,
    ...instructions.handlers,
    ...folders.handlers,
    ...versions.handlers,
    ...attachments.handlers,
    ...continuity.handlers,
    ...taskShare.handlers,
    ...plans.handlers,
    ...stopAll.handlers,
    ...routines.handlers,
  };

  return {
    bus,
    db,
    notices,
    settings,
    /** Provider profiles and models: `providers.forConversation(id)`, `.view()`. */
    providers,
    conversations,
    messages,
    /** The tool registry: `tools.register(defineTool({...}))`. */
    tools,
    /** System prompt sections: `prompts.add(provider)` returns a remover. */
    prompts,
    /** The chat engine: `chat.onBeforeEdit`, `chat.onClear`, `chat.onTurnEnd`, `chat.send`, `chat.start`. */
    chat,
    /** Task lists: `tasks.get(id)`, `.change(id, who, op)`, `.close(id, who, reason)`, `.history(id)`, `.branches`. */
    tasks,
    /** Autopilot: `autopilot.state(id)`, `.stop(id)`. */
    autopilot,
    /** Workers: `workers.list(id)`, `.active(id)`, `.stopAll(id)`. */
    workers,
    /** MCP servers: `mcp.state()`, `mcp.server(name)`. */
    mcp,
    /** Tool calls waiting for the user: `approvals.list(id)`, `.answer(id, decision)`. */
    approvals,
    /** Questions to the user: `questions.ask({...})` → the answer (docs/questions.md). */
    questions,
    /** Attached files: `attachments.store(name, bytes)`, `.content(message, model, vision)`. */
    attachments,
    /** The task ledger: `ledger.store.openCounts(id)`, `.openTaskCalls(id, taskId)`, `.all(id)`. */
    ledger,
    /** Stop and restart leave the list continuable: `continuity.view(id)`. */
    continuity,
    /** Sidebar folders: `folders.create(name)`, `.move(conversationId, folderId)`. */
    folders,
    /** Task lists shared over MCP: `taskShare.status()`, `.settled()` (docs/tools.md). */
    taskShare,
    /** Routines and the Activity inbox: `routines.list()`, `.runByName(name)`, `.activity` (docs/routines.md). */
    routines,
    /** The board's export in pieces for a streamed download: `exports.boardDownload(filter, format)`. */
    exports: { boardDownload: exporting.boardDownload },
    dispatch: createDispatcher(handlers),
    /**
     * Disposes every module in reverse order of creation, then the database and the bus.
     * Resolves once every MCP server process and the task-sharing endpoint have stopped.
     */
    close(): Promise<void> {
      try {
        lifecycle.dispose();
      } finally {
        // The data directory is free at once; the servers (which never touch it) stop after.
        lock.release();
      }
      return Promise.all([mcp.stopped(), taskShare.stopped()]).then(() => {});
    },
  };
}

export type Core = ReturnType<typeof composeCore>;
