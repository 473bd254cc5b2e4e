// Sharing task lists with other agents (docs/tools.md, "Sharing task lists"): follows the
// setting, runs the MCP endpoint while it is on, keeps the token beside the API keys,
// writes the discovery file the stdio bridge reads, and tells subscribed clients about
// every `tasks:changed`, whoever made the change.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { DisposableStore } from '../../../shared/event';
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { FolderRepo } from '../folders/folderRepo';
import type { MessageRepo } from '../conversations/messageRepo';
import { createChangeNotes } from './changeNotes';
import type { TaskService } from '../tasks/taskService';
import type { SettingsService, SecretStore } from '../settings/settingsService';
import { createProfileKeys } from '../providers/profileKeys';
import { writePrivateFileSync } from '../storage/writePrivateFile';
import type { TaskShareStatus } from '../../../shared/taskShareContract';
import { createShareReader } from './shareReader';
import { createShareWriter } from './shareWriter';
import { createResourceListWatch } from './resourceListWatch';
import type { Endpoint } from './shareEndpoint';
import type { HandlersFor } from '../../../shared/contract';
import type { taskShareCalls } from '../../../shared/taskShareContract';

// The MCP SDK's server, its transport and their schemas load when sharing starts, not with
// the app (a share of every start-up, docs/performance.md): sharing is off by default.
const loadEndpoint = () => Promise.all([import('./shareEndpoint'), import('./shareTools')]);

/** Where the running app says where its endpoint is (0600; removed when it stops). */
export const DISCOVERY_FILE = 'task-share.json';
export const Discovery = z.object({ url: z.string(), token: z.string(), pid: z.number().int() });
export type Discovery = z.infer<typeof Discovery>;

const TOKEN_NAME = 'taskShareToken';

export interface TaskShareDeps {
  db: Db;
  bus: EventBus;
  dataDir: string;
  version: string;
  settings: SettingsService;
  secrets: SecretStore;
  tasks: TaskService;
  conversations: ConversationRepo;
  folders: FolderRepo;
  messages: MessageRepo;
  /** Whether a reply is streaming in the conversation (transcript lines wait for its end). */
  isRunning: (conversationId: string) => boolean;
  log?: (message: string) => void;
}

export function createTaskShare(deps: TaskShareDeps) {
  const disposables = new DisposableStore();
  const reader = createShareReader(deps.db);
  const notes = createChangeNotes({
    bus: deps.bus,
    messages: deps.messages,
    isRunning: deps.isRunning,
    disposables,
  });
  const writer = createShareWriter({
    db: deps.db,
    bus: deps.bus,
    tasks: deps.tasks,
    conversations: deps.conversations,
    folders: deps.folders,
    reader,
    notes,
  });
  // Only the extra slot is used: the keys themselves are the providers module's.
  const secret = createProfileKeys(deps.secrets, () => undefined);
  const discoveryFile = path.join(deps.dataDir, DISCOVERY_FILE);

  // One Stepwise per data directory (the instance lock): a discovery file found now was
  // left by a run that crashed, and names a port someone else may hold by now.
  fs.rmSync(discoveryFile, { force: true });

  let endpoint: Endpoint | null = null;
  let error: string | null = null;
  /** Serializes starts and stops, so a quick off-on never runs two listeners. */
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  /** Without a keychain (the desktop on a bare Linux) the token lives for this launch only. */
  let launchToken: string | null = null;
  const newToken = () => randomBytes(24).toString('base64url');

  function token(): string {
    if (!deps.secrets.canStore) return (launchToken ??= newToken());
    let value = secret.extra(TOKEN_NAME);
    if (!value) {
      value = newToken();
      secret.setExtra(TOKEN_NAME, value);
    }
    return value;
  }

  function replaceToken(): void {
    if (deps.secrets.canStore) secret.setExtra(TOKEN_NAME, newToken());
    else launchToken = newToken();
  }

  const wanted = () => {
    const s = deps.settings.effective();
    return { on: s.shareTaskLists && !closed, port: s.taskSharePort };
  };

  async function stop() {
    if (!endpoint) return;
    const current = endpoint;
    endpoint = null;
    fs.rmSync(discoveryFile, { force: true });
    await current.close();
  }

  async function start(port: number) {
    try {
      const [{ startEndpoint }, { createShareServer }] = await loadEndpoint();
      endpoint = await startEndpoint({
        port,
        token,
        newServer: () => createShareServer({ reader, writer, version: deps.version }),
        onClients: announce,
      });
      error = null;
      const discovery: Discovery = { url: endpoint.url, token: token(), pid: process.pid };
      writePrivateFileSync(discoveryFile, JSON.stringify(discovery));
    } catch (cause) {
      // Whatever an earlier run left names an endpoint that is not this one.
      fs.rmSync(discoveryFile, { force: true });
      const code = (cause as NodeJS.ErrnoException | null)?.code;
      error =
        code === 'EADDRINUSE'
          ? `Port ${port} is in use by another program. Choose another port.`
          : `Could not listen on 127.0.0.1:${port} (${cause instanceof Error ? cause.message : String(cause)}).`;
      deps.log?.(`[stepwise] task sharing: ${error}`);
    }
  }

  /** Tells the Settings section (clients connected, started, stopped). */
  function announce() {
    if (!closed) deps.bus.emit('taskShare:status', status());
  }

  /** Brings the endpoint in line with the settings. */
  function follow(): Promise<void> {
    queue = queue.then(async () => {
      const { on, port } = wanted();
      const running = endpoint !== null;
      const samePort = endpoint?.url.includes(`:${port}/`) ?? false;
      if (running && (!on || !samePort)) await stop();
      if (on && endpoint === null) await start(port);
      if (!on) error = null;
      if (running !== (endpoint !== null) || error) announce();
    });
    return queue;
  }

  const resourceList = disposables.add(createResourceListWatch(() => endpoint?.resourcesChanged()));
  deps.bus.on('settings:changed', () => void follow(), disposables);
  deps.bus.on(
    'tasks:changed',
    (change) => {
      if (!endpoint) return;
      resourceList.tasksChanged(change);
      endpoint.listChanged(change.conversationId);
    },
    disposables,
  );
  deps.bus.on('conversations:changed', (change) => endpoint && resourceList.conversationsChanged(change), disposables);
  void follow();
  let stopping: Promise<void> | null = null;

  function status(): TaskShareStatus {
    const { taskSharePort: port, shareTaskLists } = deps.settings.effective();
    return {
      enabled: shareTaskLists,
      port,
      url: `http://127.0.0.1:${port}/mcp`,
      listening: endpoint !== null,
      error,
      clients: endpoint?.clients() ?? 0,
    };
  }

  function configuration(): string {
    const { url } = status();
    return JSON.stringify(
      { mcpServers: { stepwise: { type: 'http', url, headers: { Authorization: `Bearer ${token()}` } } } },
      null,
      2,
    );
  }

  const handlers: HandlersFor<typeof taskShareCalls> = {
    'taskShare:status': async () => {
      await queue;
      return status();
    },
    'taskShare:regenerateToken': async () => {
      replaceToken();
      await queue;
      if (endpoint) {
        await endpoint.disconnectAll();
        writePrivateFileSync(
          discoveryFile,
          JSON.stringify({ url: endpoint.url, token: token(), pid: process.pid } satisfies Discovery),
        );
      }
      return status();
    },
    'taskShare:configuration': () => ({ json: configuration() }),
  };

  return {
    handlers,
    reader,
    writer,
    status,
    /** Resolves once the endpoint runs as the settings say (tests wait on it). */
    settled: () => follow(),
    /** Stops following the settings and begins stopping the endpoint (`stopped()` resolves when it has). */
    dispose(): void {
      if (stopping) return;
      closed = true;
      disposables.dispose();
      stopping = follow();
    },
    stopped: (): Promise<void> => stopping ?? Promise.resolve(),
  };
}

export type TaskShare = ReturnType<typeof createTaskShare>;
