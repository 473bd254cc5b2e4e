// One live connection to one MCP server through the official SDK client: stdio, or
// Streamable HTTP with a fallback to the older HTTP+SSE transport.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  CallToolResult,
  ElicitRequest,
  ElicitResult,
  ReadResourceResult,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerConfig } from './mcpConfig';
import { limitedReadBuffer, RESULT_TOO_LARGE, type ReadBufferLike } from './stdioReadLimit';
import { authFetch, oauthProvider, signInNeededIn, type AuthHints } from './mcpOAuth';
import type { OAuthStore } from './mcpOAuthStore';
import { callToolAsTask, taskProblem, type TaskCallOptions } from './mcpTaskCall';
import { connectionFeatures, type ConnectionFeatures } from './mcpFeatures';

export const STDERR_LINES = 20;

// The SDK (its zod schemas, ajv, four transports) loads with the first server, not with
// the app: most start-ups have no MCP server to talk to.
async function importSdk() {
  const [client, stdio, streamableHttp, sse, types, stdioShared, auth] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
  ]);
  return {
    ...client,
    ...stdio,
    ...streamableHttp,
    ...sse,
    ...types,
    deserializeMessage: stdioShared.deserializeMessage,
    UnauthorizedError: auth.UnauthorizedError,
  };
}
type Sdk = Awaited<ReturnType<typeof importSdk>>;
let sdk: Promise<Sdk> | null = null;
let loaded: Sdk | null = null;
const loadSdk = () => (sdk ??= importSdk().then((module) => (loaded = module)));

/** Why an SDK call failed, when the SDK says so: it timed out, the connection closed, or the answer was too large to read. */
export function mcpFailureKind(error: unknown): 'timeout' | 'closed' | 'tooLarge' | null {
  if (!loaded || !(error instanceof loaded.McpError)) return null;
  if (error.code === loaded.ErrorCode.RequestTimeout) return 'timeout';
  if (error.code === RESULT_TOO_LARGE) return 'tooLarge';
  return error.code === loaded.ErrorCode.ConnectionClosed ? 'closed' : null;
}

export interface ConnectionHooks {
  /** The server said its tool list changed. */
  onToolsChanged(): void;
  /** The connection ended without us closing it (crash, server exit, network). */
  onLost(reason: string): void;
  onStderr(line: string): void;
  /** Folders the server may work in (`roots/list`). */
  roots(): { uri: string; name?: string }[];
  /** A `notifications/message` log line from the server. */
  onLog?: (entry: { level: string; logger: string | null; text: string }) => void;
  /** Answers `elicitation/create`; absent: the capability is not offered. */
  elicit?: (request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
}

export type CallOptions = TaskCallOptions;

/** A listed tool that cannot be offered (its definition breaks the MCP schema), and why. */
export interface InvalidTool {
  name: string;
  problem: string;
}

export interface ListedTools {
  tools: Tool[];
  invalid: InvalidTool[];
}

export interface Connection {
  pid: number | null;
  /** What the server said about using it (`instructions` in its initialize result), or null. */
  instructions: string | null;
  listTools(): Promise<ListedTools>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>;
  /** `resources/read` (an MCP App's `ui://` document). */
  readResource(uri: string, timeoutMs: number): Promise<ReadResourceResult>;
  /** Prompts, resources, completion, roots (mcpFeatures.ts). */
  features: ConnectionFeatures;
  close(): Promise<void>;
}

function newClient(sdk: Sdk, version: string, hooks: ConnectionHooks): Client {
  const client = new sdk.Client(
    { name: 'Stepwise', version },
    {
      capabilities: {
        roots: { listChanged: true },
        // Defaults the user leaves as they are are filled in by the SDK (SEP-1034).
        ...(hooks.elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
        // MCP Apps: a tool's `ui://` resource is shown in its step (mcpApps.ts).
        extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
      },
      listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => hooks.onToolsChanged() } },
    },
  );
  client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({ roots: hooks.roots() }));
  const onLog = hooks.onLog;
  if (onLog)
    client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, ({ params }) =>
      onLog({
        level: params.level,
        logger: params.logger ?? null,
        text: typeof params.data === 'string' ? params.data : JSON.stringify(params.data),
      }),
    );
  const elicit = hooks.elicit;
  if (elicit)
    client.setRequestHandler(sdk.ElicitRequestSchema, (request, extra) => elicit(request.params, extra.signal));
  return client;
}

function stdioTransport(sdk: Sdk, config: ServerConfig, hooks: ConnectionHooks): StdioClientTransport {
  const transport = new sdk.StdioClientTransport({
    command: config.command,
    args: config.args,
    env: config.env,
    cwd: config.cwd || undefined,
    stderr: 'pipe',
  });
  // The SDK's reader closes the connection on a message over 10 MB; ours answers the
  // request with the size instead (stdioReadLimit.ts). The field is the SDK's own, so a
  // test (mcp.bigResult) fails if a new SDK renames it.
  const internals = transport as unknown as { _readBuffer: ReadBufferLike };
  if (!internals._readBuffer)
    throw new Error('The MCP SDK changed: its stdio transport has no read buffer to replace.');
  const onLog = hooks.onLog;
  internals._readBuffer = limitedReadBuffer(
    sdk.deserializeMessage,
    undefined,
    onLog &&
      ((params) =>
        onLog({
          level: typeof params.level === 'string' ? params.level : 'info',
          logger: typeof params.logger === 'string' ? params.logger : null,
          text: typeof params.data === 'string' ? params.data : (JSON.stringify(params.data) ?? ''),
        })),
  );
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) hooks.onStderr(line);
  });
  return transport;
}

async function connectWith(client: Client, transport: Transport, timeoutMs: number): Promise<void> {
  await client.connect(transport, { timeout: timeoutMs });
}

/** tools/list as the SDK reads it, but each tool unchecked (checked one by one after). */
const looseToolList = (sdk: Sdk) => sdk.PaginatedResultSchema.extend({ tools: z.array(z.unknown()) });

function nameOf(raw: unknown): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name ? name.slice(0, 100) : '(unnamed)';
}

/** `inputSchema.required is not valid: expected array, received number`, not a JSON dump. */
function firstProblem(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const issue = issues[0];
  if (!issue) return 'it is not a valid tool definition';
  const where = issue.path.map(String).join('.');
  const message = issue.message.replace(/^Invalid input: /, '');
  return where ? `its ${where} is not valid: ${message}` : `it is not a valid tool definition: ${message}`;
}

/** Sign-in for remote servers: the saved tokens, and where a refusal's hints go. */
export interface ConnectionAuth {
  store: OAuthStore;
  clientName: string;
  onHints(hints: AuthHints): void;
}

/** A refusal for want of a sign-in: never a reason to try the older transport. */
function refusedForAuth(error: unknown): boolean {
  if (signInNeededIn(error)) return true;
  if (!loaded) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return (
    error instanceof loaded.UnauthorizedError ||
    (error instanceof loaded.StreamableHTTPError && (code === 401 || code === 403))
  );
}

/** Starts (or reaches) the server and completes the MCP handshake. */
export async function openConnection(
  config: ServerConfig,
  hooks: ConnectionHooks,
  options: { version: string; connectTimeoutMs: number; auth?: ConnectionAuth },
): Promise<Connection> {
  const sdk = await loadSdk();
  let client = newClient(sdk, options.version, hooks);
  let transport: Transport;
  let pid: number | null = null;
  if (config.transport === 'stdio') {
    const stdio = stdioTransport(sdk, config, hooks);
    transport = stdio;
    await connectWith(client, stdio, options.connectTimeoutMs).catch(async (error: unknown) => {
      await stdio.close().catch(() => undefined);
      throw error;
    });
    pid = stdio.pid;
  } else {
    const url = new URL(config.url);
    const auth = options.auth;
    const remote = {
      requestInit: { headers: config.headers },
      ...(auth
        ? {
            authProvider: oauthProvider({ config, store: auth.store, clientName: auth.clientName }),
            fetch: await authFetch(config, auth.store, auth.onHints),
          }
        : {}),
    };
    if (config.transport === 'http') {
      transport = new sdk.StreamableHTTPClientTransport(url, remote);
      try {
        await connectWith(client, transport, options.connectTimeoutMs);
      } catch (error) {
        await transport.close().catch(() => undefined);
        // A server that wants a sign-in speaks this transport: say so rather than try the older one.
        if (refusedForAuth(error)) throw error;
        // A server from before 2025-03-26 only speaks HTTP+SSE: try that before giving up.
        client = newClient(sdk, options.version, hooks);
        transport = new sdk.SSEClientTransport(url, remote);
        await connectWith(client, transport, options.connectTimeoutMs);
      }
    } else {
      transport = new sdk.SSEClientTransport(url, remote);
      await connectWith(client, transport, options.connectTimeoutMs);
    }
  }

  // A server that logs sends only what its level lets through: ask for info and above.
  if (hooks.onLog && client.getServerCapabilities()?.logging)
    await client.setLoggingLevel('info', { timeout: options.connectTimeoutMs }).catch(() => undefined);

  let closing = false;
  /** Listed tools that run only as tasks. */
  let taskTools = new Set<string>();
  client.onclose = () => {
    if (!closing)
      hooks.onLost(config.transport === 'stdio' ? 'the server process exited' : 'the connection was closed');
  };

  return {
    pid,
    instructions: client.getInstructions()?.trim() || null,
    features: connectionFeatures(client, config.timeoutMs),
    async listTools() {
      // Each tool is checked on its own: the SDK's listTools refuses the whole list (and
      // so the server) over one tool with a bad schema.
      const tools: Tool[] = [];
      const invalid: InvalidTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.request(
          { method: 'tools/list', params: cursor ? { cursor } : {} },
          looseToolList(sdk),
          {
            timeout: options.connectTimeoutMs,
          },
        );
        for (const raw of page.tools) {
          const tool = sdk.ToolSchema.safeParse(raw);
          const problem = tool.success ? taskProblem(client, tool.data) : firstProblem(tool.error.issues);
          if (tool.success && !problem) tools.push(tool.data);
          else invalid.push({ name: nameOf(raw), problem: problem ?? 'it is not a valid tool definition' });
        }
        cursor = page.nextCursor;
      } while (cursor);
      taskTools = new Set(tools.filter((t) => t.execution?.taskSupport === 'required').map((t) => t.name));
      // What the SDK's listTools would have kept: output schemas to check results against.
      (client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void }).cacheToolMetadata?.(tools);
      return { tools, invalid };
    },
    async callTool(name, args, call) {
      // The SDK keeps listening to the signal after the answer: a Stop later in the turn would
      // send notifications/cancelled for a call that had finished. Only a call in flight hears it.
      const inFlight = new AbortController();
      const forward = () => inFlight.abort(call.signal.reason);
      if (call.signal.aborted) forward();
      else call.signal.addEventListener('abort', forward, { once: true });
      try {
        // A tool that must run as a task (MCP Tasks): created, polled, fetched; Stop cancels the task.
        if (taskTools.has(name))
          return await callToolAsTask(client, name, args, sdk.CallToolResultSchema, {
            ...call,
            signal: inFlight.signal,
          });
        const result = await client.callTool({ name, arguments: args }, sdk.CallToolResultSchema, {
          signal: inFlight.signal,
          timeout: call.timeoutMs,
          onprogress: call.onProgress,
          resetTimeoutOnProgress: false,
        });
        return result as CallToolResult;
      } finally {
        call.signal.removeEventListener('abort', forward);
      }
    },
    readResource: (uri, timeoutMs) => client.readResource({ uri }, { timeout: timeoutMs }),
    async close() {
      closing = true;
      // stdio: the SDK closes stdin, then SIGTERM, then SIGKILL after a grace period.
      await client.close().catch(() => undefined);
    },
  };
}
