// One configured server's life: started on first use, its tools listed, restarted after
// a crash on the next use (with backoff), stopped cleanly. Calls share one connection.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from './mcpConfig';
import {
  openConnection,
  STDERR_LINES,
  type Connection,
  type ConnectionAuth,
  type ConnectionHooks,
  type InvalidTool,
} from './mcpConnection';
import { signInNeededIn, type SignInNeeded } from './mcpOAuth';
import { createLogBuffer } from './mcpLog';

export type ServerStatus = 'stopped' | 'starting' | 'ready' | 'error';

export interface ServerDeps {
  version: string;
  connectTimeoutMs: number;
  now: () => number;
  /** The state changed (status, tools, stderr). */
  changed(): void;
  roots: ConnectionHooks['roots'];
  elicit?: ConnectionHooks['elicit'];
  /** Live child pids, so an abrupt exit can still kill them. */
  pids: Set<number>;
  /** Sign-in for remote servers (absent: none is attempted). */
  auth?: ConnectionAuth;
  /** The server refused us until the user signs in. */
  signInNeeded?: (refusal: SignInNeeded) => void;
}

/** What the model (or a caller) is told when a server wants the user to sign in. */
export function signInMessage(server: string, refusal: SignInNeeded): string {
  return `The MCP server "${server}" needs the user to sign in (${refusal.message}); the call did not run. Ask the user to sign in from Settings → Tools (MCP) → ${server} → Sign in, then try again.`;
}

const BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000];

export function createServer(initial: ServerConfig, deps: ServerDeps) {
  let config = initial;
  let status: ServerStatus = 'stopped';
  let error: string | null = null;
  let stderr: string[] = [];
  let tools: Tool[] = [];
  /** Listed tools that cannot be offered, and why (the others still are). */
  let invalid: InvalidTool[] = [];
  let connection: Connection | null = null;
  /** The instructions of the last connection (kept while it restarts). */
  let instructions: string | null = null;
  const log = createLogBuffer(deps.now);
  let starting: Promise<Connection> | null = null;
  let failures = 0;
  let retryAt = 0;
  /** Bumped by stop/restart so a start that finishes late is discarded. */
  let generation = 0;

  function setStatus(next: ServerStatus, why: string | null = null) {
    status = next;
    error = why;
    deps.changed();
  }

  function failed(why: string) {
    failures++;
    retryAt = deps.now() + BACKOFF_MS[Math.min(failures, BACKOFF_MS.length) - 1];
    setStatus('error', why);
  }

  /** Waiting for the user to sign in: no backoff, since only the user can change it. */
  function refused(refusal: SignInNeeded) {
    retryAt = 0;
    setStatus('error', refusal.message);
    deps.signInNeeded?.(refusal);
  }

  function forget(conn: Connection) {
    if (conn.pid !== null) deps.pids.delete(conn.pid);
  }

  async function refreshTools(conn: Connection, gen: number) {
    try {
      const listed = await conn.listTools();
      if (gen !== generation || connection !== conn) return;
      ({ tools, invalid } = listed);
      deps.changed();
    } catch (err) {
      deps.changed();
      stderr = [...stderr, `tools/list failed: ${message(err)}`].slice(-STDERR_LINES);
    }
  }

  async function start(): Promise<Connection> {
    const gen = ++generation;
    stderr = [];
    setStatus('starting');
    let conn: Connection;
    const hooks: ConnectionHooks = {
      onToolsChanged: () => void refreshTools(conn, gen),
      onLost: (reason) => {
        if (gen !== generation || connection !== conn) return;
        connection = null;
        forget(conn);
        failed(`${config.name} stopped: ${reason}.`);
      },
      onStderr: (line) => {
        stderr = [...stderr, line].slice(-STDERR_LINES);
        deps.changed();
      },
      roots: deps.roots,
      elicit: deps.elicit,
      onLog: (entry) => {
        if (gen === generation) log.add(entry);
      },
    };
    try {
      conn = await openConnection(config, hooks, {
        version: deps.version,
        connectTimeoutMs: deps.connectTimeoutMs,
        auth: deps.auth,
      });
    } catch (err) {
      const refusal = signInNeededIn(err);
      if (refusal) {
        if (gen === generation) refused(refusal);
        throw new Error(signInMessage(config.name, refusal), { cause: refusal });
      }
      if (gen === generation) failed(`${config.name} could not start: ${message(err)}`);
      throw new Error(`The MCP server "${config.name}" could not start: ${message(err)}`, { cause: err });
    }
    if (conn.pid !== null) deps.pids.add(conn.pid);
    if (gen !== generation) {
      forget(conn);
      void conn.close();
      throw new Error(`The MCP server "${config.name}" was stopped while starting.`);
    }
    connection = conn;
    instructions = conn.instructions;
    try {
      ({ tools, invalid } = await conn.listTools());
    } catch (err) {
      connection = null;
      forget(conn);
      void conn.close();
      failed(`${config.name} started but listing its tools failed: ${message(err)}`);
      throw new Error(`The MCP server "${config.name}" did not list its tools: ${message(err)}`, { cause: err });
    }
    setStatus('ready');
    return conn;
  }

  /** The live connection, starting the server if needed. Rejects with a message a model can act on. */
  function ensure(options: { ignoreBackoff?: boolean } = {}): Promise<Connection> {
    if (connection) return Promise.resolve(connection);
    if (starting) return starting;
    if (status === 'error' && !options.ignoreBackoff && deps.now() < retryAt) {
      const seconds = Math.ceil((retryAt - deps.now()) / 1000);
      return Promise.reject(
        new Error(
          `The MCP server "${config.name}" failed (${error}). Stepwise retries it in ${seconds} s; try again then.`,
        ),
      );
    }
    starting = start().finally(() => {
      starting = null;
    });
    return starting;
  }

  async function stop(): Promise<void> {
    generation++;
    const conn = connection;
    connection = null;
    starting = null;
    tools = [];
    invalid = [];
    if (status !== 'stopped') setStatus('stopped');
    if (conn) {
      await conn.close();
      forget(conn);
    }
  }

  return {
    get config() {
      return config;
    },
    setConfig(next: ServerConfig) {
      config = next;
    },
    status: () => status,
    pid: () => connection?.pid ?? null,
    /** The connection when the server is running (never starts it). */
    live: (): Connection | null => connection,
    error: () => error,
    stderr: () => stderr,
    tools: () => tools,
    instructions: () => instructions,
    log: () => log.view(),
    invalidTools: () => invalid,
    ensure,
    /** Whether `prepare` should start it now (not in a crash backoff). */
    wantsStart: () => !connection && !starting && (status !== 'error' || deps.now() >= retryAt),
    succeeded() {
      failures = 0;
    },
    /** A call was refused for want of a sign-in: the connection goes until the user signs in. */
    async refusedDuringCall(refusal: SignInNeeded): Promise<void> {
      generation++;
      const conn = connection;
      connection = null;
      refused(refusal);
      if (conn) {
        await conn.close();
        forget(conn);
      }
    },
    stop,
    async restart(): Promise<void> {
      await stop();
      failures = 0;
      await ensure().catch(() => undefined);
    },
  };
}

export type McpServer = ReturnType<typeof createServer>;

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
