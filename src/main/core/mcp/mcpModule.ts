// MCP in the core: reads and watches `mcp.json`, keeps one lifecycle per server, offers
// their tools through the tool registry, and carries out the Settings → Tools (MCP) calls.
import path from 'node:path';
import type { McpState, ToolProgress } from '../../../shared/mcp';
import type { Approvals } from '../approvals/approvalsModule';
import { AppError, notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import type { Notices } from '../notices/noticesModule';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { ToolContext } from '../tools/toolTypes';
import {
  editServer,
  MCP_FILE,
  parseConfig,
  readConfigText,
  sameLaunch,
  writeConfig,
  type RawFile,
  type ServerConfig,
} from './mcpConfig';
import type { ConvertedResult } from './mcpResults';
import { createServer, type McpServer } from './mcpServer';
import { mcpTool, type McpToolDeps } from './mcpTools';
import { createToolSync } from './mcpToolSync';
import { createKnownServers } from './mcpKnown';
import { mcpHandlers } from './mcpHandlers';
import { createElicitations } from './mcpElicit';
import type { Questions } from '../questions/questionModule';
import type { ToolOutputs } from './toolOutputs';
import { createFailureNotices, reportHeld, reportInvalid } from './mcpNotices';
import { createOAuthStore, type SecretSlot } from './mcpOAuthStore';
import { createLoopback } from './mcpLoopback';
import { createSignIn } from './mcpSignIn';
import { instructionsSection } from './mcpInstructions';
import { createMcpApps, mcpAppsHandlers } from './mcpApps';
import type { CatalogDeps } from './mcpCatalog';
import { createStepSignIns } from './mcpStepSignIn';
import { mcpCatalog } from './mcpCatalog';
import { rootsOf, watchRootFolders } from './mcpRoots';
import type { Db } from '../db/openDatabase';
import { DisposableStore } from '../../../shared/event';
import { createConversationRoots } from './mcpConversationRoots';
import { createProcessGuard } from './mcpProcesses';
import { serverView } from './mcpServerView';
import { watchConfigFile } from './mcpConfigWatch';

export interface McpModuleDeps {
  dataDir: string;
  bus: EventBus;
  notices: Notices;
  tools: ToolRegistry;
  approvals: Approvals;
  outputs: ToolOutputs;
  version: string;
  autoAllowReadOnly(): boolean;
  /** The database: a sidebar folder's "Folders the tools may use" (`folder_roots`), sent as roots for its conversations. */
  db?: Db;
  /** Settings → Tools (MCP) → "Folders the tools may use": absolute paths, sent as roots to every server. */
  rootFolders?: () => string[];
  /** The question UI (as `ask_user`): elicitations from servers are asked there. Without it servers are not offered elicitation. */
  questions?: Questions;
  connectTimeoutMs?: number;
  /** Where sign-in tokens of remote servers are kept (null: for this launch only). */
  oauthSecrets?: SecretSlot | null;
  /** The loopback port a sign-in's browser comes back to (0: any free one). */
  oauthCallbackPort?: number;
  /** An https client ID metadata document for authorization servers that accept one (Stepwise publishes none by default). */
  oauthClientMetadataUrl?: string;
  /** How long a sign-in may wait for the browser (2 minutes). */
  signInTimeoutMs?: number;
  /** How long each request to an authorization server may take (30 s). */
  signInRequestTimeoutMs?: number;
  /** The task of the task list a running call belongs to (the ledger's), for its MCP task status. */
  ledgerTaskOf?(
    transcriptId: string,
    toolCallId: string,
  ): { conversationId: string; listId: number; taskId: number } | null;
  /** Stores a prompt's messages as given (roles kept) and lets the model answer (`mcp:sendPrompt`). */
  sendGiven?: CatalogDeps['sendGiven'];
  /** Sends an MCP App's message into a conversation as the user's (`ui/message`). */
  sendMessage?(conversationId: string, text: string): void;
  now?: () => number;
  log?: (line: string) => void;
}

const NOTICE_ID = 'mcp-config';

export function createMcp(deps: McpModuleDeps) {
  const file = path.join(deps.dataDir, MCP_FILE);
  const now = deps.now ?? Date.now;
  const known = createKnownServers(deps.dataDir);
  const servers = new Map<string, McpServer>();
  /** Who called each server last: its roots and elicitations are for that conversation. */
  const lastUser = new Map<string, Pick<ToolContext, 'conversationId' | 'agentId' | 'transcriptId'>>();
  let raw: RawFile = {};
  let lastText = '';
  let configError: string | null = null;
  let closed = false;
  let stopping: Promise<void> | null = null;
  const elicitations = deps.questions ? createElicitations(deps.questions, (name) => lastUser.get(name)) : null;
  const oauthStore = createOAuthStore(deps.oauthSecrets ?? null);
  const signIn = createSignIn({
    store: oauthStore,
    loopback: createLoopback({ preferredPort: deps.oauthCallbackPort }),
    clientName: 'Stepwise',
    clientMetadataUrl: deps.oauthClientMetadataUrl,
    timeoutMs: deps.signInTimeoutMs,
    requestTimeoutMs: deps.signInRequestTimeoutMs,
    changed: () => changed(),
    signedIn: (name) => {
      const server = servers.get(name);
      if (server?.config.enabled) void server.restart();
    },
  });

  const processes = createProcessGuard();

  function state(): McpState {
    return {
      servers: [...servers.values()].map((server) =>
        serverView(server, {
          signInStatus: (c) => signIn.status(c),
          isLeftOut: (name, tool) => toolSync.isLeftOut(name, tool),
        }),
      ),
      configError,
    };
  }

  let pushing = false;
  function changed() {
    if (closed || pushing) return;
    pushing = true;
    queueMicrotask(() => {
      pushing = false;
      if (!closed) deps.bus.emit('mcp:changed', state());
    });
  }

  /** The registry holds the enabled tools of every enabled server's last listing, up to the cap (mcpToolSync.ts). */
  const toolSync = createToolSync({
    tools: deps.tools,
    notices: deps.notices,
    define: (server, tool, modelName) => mcpTool(server, tool, modelName, toolDeps),
  });
  const sync = () => toolSync.sync(servers.values());

  const apps = createMcpApps({
    server: (name) => servers.get(name),
    servers: () => servers.values(),
    tools: deps.tools,
    sendMessage: deps.sendMessage,
  });

  const stepSignIns = createStepSignIns();

  const toolDeps = {
    approvals: deps.approvals,
    autoAllowReadOnly: deps.autoAllowReadOnly,
    alwaysAllow: (server: string, tool: string) =>
      edit((current) =>
        editServer(current, server, (entry) => ({
          ...entry,
          alwaysAllow: [...new Set([...(entry.alwaysAllow ?? []), tool])],
        })),
      ),
    progress: (progress: ToolProgress) => deps.bus.emit('tools:progress', progress),
    taskStatus: ((status) =>
      deps.bus.emit('mcp:taskStatus', {
        ...status,
        ledgerTask: deps.ledgerTaskOf?.(status.conversationId, status.toolCallId) ?? null,
      })) satisfies McpToolDeps['taskStatus'],
    output: (ctx: ToolContext, result: ConvertedResult) => {
      if (ctx.callId)
        deps.outputs.save(ctx.transcriptId ?? ctx.conversationId, ctx.callId, result.images, result.attachments);
    },
    raw: apps.remember,
    signInNeeded: stepSignIns.needed,
    usedBy: (server: string, ctx: ToolContext) => {
      const before = JSON.stringify(roots.forConversation(lastUser.get(server)?.conversationId));
      lastUser.set(server, {
        conversationId: ctx.conversationId,
        agentId: ctx.agentId,
        transcriptId: ctx.transcriptId,
      });
      // Another conversation, another folder: the server hears its roots changed.
      if (JSON.stringify(roots.forConversation(ctx.conversationId)) !== before) roots.changed(servers.get(server));
    },
  };

  const roots = createConversationRoots(deps.db, () => servers.values());
  // A conversation moved to another folder, or a folder went: servers ask for their roots again.
  const subscriptions = new DisposableStore();
  deps.bus.on('folders:changed', () => roots.changed(), subscriptions);
  deps.bus.on(
    'messages:changed',
    ({ conversationId, message }) => message.role === 'user' && apps.userWrote(conversationId),
    subscriptions,
  );

  function serverFor(config: ServerConfig): McpServer {
    const server = createServer(config, {
      version: deps.version,
      connectTimeoutMs: deps.connectTimeoutMs ?? 30_000,
      now,
      pids: processes.pids,
      auth: {
        store: oauthStore,
        clientName: 'Stepwise',
        onHints: (hints) => signIn.hints(server.config.name, hints),
      },
      signInNeeded: (refusal) => signIn.needed(server.config.name, refusal.reason),
      roots: () => {
        const user = lastUser.get(server.config.name);
        return rootsOf(deps.rootFolders?.() ?? [], roots.forConversation(user?.conversationId));
      },
      elicit: elicitations ? (params, signal) => elicitations.ask(server.config.name, params, signal) : undefined,
      changed: () => {
        if (server.status() === 'ready') signIn.connected(server.config.name);
        sync();
        failures.report(server);
        reportInvalid(deps.notices, server);
        changed();
      },
    });
    return server;
  }

  const failures = createFailureNotices(deps.notices, (config) => signIn.status(config).status === 'needed');

  /** Applies a parsed configuration: changed servers restart, removed ones stop. */
  function apply(configs: ServerConfig[]) {
    const next = new Map(configs.map((c) => [c.name, c]));
    for (const [name, server] of servers) {
      const config = next.get(name);
      if (config && sameLaunch(config, server.config)) continue;
      // Tokens follow their server: removed, or pointed elsewhere, it signs in again.
      if (!config || config.url !== server.config.url) signIn.forget(name);
      servers.delete(name);
      failures.forget(name);
      void server.stop();
    }
    for (const config of configs) {
      const server = servers.get(config.name);
      if (server) {
        server.setConfig(config);
        if (!config.enabled) {
          void server.stop();
          failures.forget(config.name);
        }
      } else {
        servers.set(config.name, serverFor(config));
      }
    }
    sync();
    changed();
  }

  function load(text: string) {
    lastText = text;
    const parsed = parseConfig(text);
    if (!parsed.ok) {
      configError = parsed.error;
      deps.notices.add({
        id: NOTICE_ID,
        level: 'warning',
        text: `${parsed.error}. The last good MCP configuration stays in force and the file was not changed.`,
      });
      changed();
      return;
    }
    if (configError) deps.notices.dismiss(NOTICE_ID);
    configError = null;
    raw = parsed.raw;
    const { configs, held } = known.gate(parsed.servers);
    reportHeld(deps.notices, held);
    apply(configs);
  }

  /** Every change from the UI goes through here: never over a file we could not read. */
  function edit(change: (current: RawFile) => RawFile): McpState {
    if (configError) {
      throw new AppError('conflict', `${configError}. Fix mcp.json by hand first; Stepwise will not overwrite it.`);
    }
    const next = change(raw);
    const text = writeConfig(file, next);
    load(text);
    return state();
  }

  function must(name: string): McpServer {
    const server = servers.get(name);
    if (!server) throw notFound(`MCP server "${name}"`);
    return server;
  }

  try {
    load(readConfigText(file));
  } catch (error) {
    deps.log?.(`[stepwise] reading ${MCP_FILE} failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  const watcher = watchConfigFile(deps.dataDir, MCP_FILE, () => {
    const text = readConfigText(file);
    if (text !== lastText) load(text);
  });

  const offSettings = watchRootFolders(
    deps.bus,
    () => deps.rootFolders?.() ?? [],
    () => servers.values(),
  );

  const removePreparer = deps.tools.addPreparer(async () => {
    // Lazily: the first request of any conversation starts the enabled servers.
    // A server another conversation is starting right now is waited for too.
    const starting = [...servers.values()].filter(
      (s) => s.config.enabled && (s.wantsStart() || s.status() === 'starting'),
    );
    await Promise.all(starting.map((s) => s.ensure().catch(() => undefined)));
  });

  const handlers = {
    ...mcpCatalog({ servers: () => servers.values(), must, sendGiven: deps.sendGiven }),
    ...mcpHandlers({
      state,
      edit,
      must,
      has: (name) => servers.has(name),
      raw: () => raw,
      allow: (config) => known.allow(config),
      output: (conversationId, toolCallId) => deps.outputs.get(conversationId, toolCallId),
      signIn: async (server) => {
        if (server.config.transport === 'stdio')
          throw new AppError('invalid_request', `MCP server "${server.config.name}" runs locally; it has no sign-in.`);
        if (!server.config.enabled)
          throw new AppError('conflict', `MCP server "${server.config.name}" is disabled. Enable it first.`);
        return signIn.start(server.config);
      },
      signOut: async (server) => {
        signIn.signOut(server.config);
        if (server.config.enabled) await server.restart();
      },
    }),
  };

  return {
    handlers: { ...handlers, ...mcpAppsHandlers(apps), ...stepSignIns.handlers, ...roots.handlers },
    state,
    /** The system prompt's section with each offered server's instructions (added by createCore). */
    prompt: {
      systemSection: (ctx: { conversationId: string; agentId: string }) =>
        [instructionsSection(servers.values()), apps.contextSection(ctx.conversationId, ctx.agentId)]
          .filter(Boolean)
          .join('\n\n') || null,
    },
    /** A server by name (tests and the bench reach the live connection this way). */
    server: (name: string) => servers.get(name),
    /** Begins stopping every server (`stopped()` resolves once all have). */
    dispose(): void {
      stopping ??= close();
    },
    stopped: (): Promise<void> => stopping ?? Promise.resolve(),
  };

  /** Stops every server: stdin closed, then SIGTERM, then SIGKILL after a grace period. */
  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    elicitations?.close();
    apps.close();
    signIn.close();
    watcher.close();
    removePreparer();
    offSettings.dispose();
    subscriptions.dispose();
    await Promise.all([...servers.values()].map((s) => s.stop()));
    processes.dispose();
  }
}

export type Mcp = ReturnType<typeof createMcp>;
