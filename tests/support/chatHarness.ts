// A real core (SQLite in a temp dir) pointed at a scripted server, with every pushed event
// and log line captured, and helpers to call the contract and wait for the loop.
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import type { ChatEngineOptions } from '../../src/main/core/llm/agentLoop';
import type { Clock } from '../../src/main/core/routines/scheduler';
import type { CallName, CallRequest, CallResponse, EventName, EventPayload, IpcError } from '../../src/shared/ipc';
import { startScriptedServer, type ScriptedServer } from './scriptedServer';
import { makeTempDir, removeDir, seedPlanReviewOff } from './tempDir';

export const TEST_KEY = 'sk-test-0123456789-secret-key';
export const TEST_MODEL = 'scripted-model';

export interface CapturedEvent {
  event: EventName;
  payload: unknown;
}

export class CallFailed extends Error {
  constructor(readonly error: IpcError) {
    super(`${error.code}: ${error.message}`);
  }
}

export interface HarnessOptions {
  /** Environment for the core; defaults point at the server with TEST_KEY and TEST_MODEL. */
  env?: Record<string, string | undefined>;
  chat?: Partial<ChatEngineOptions>;
  /** Reuse a data dir (restart tests). */
  dataDir?: string;
  /** Keep plan review's default (on) for new conversations; other tests run with it off. */
  planReview?: boolean;
  /** The routines' clock (routine tests). */
  routineClock?: Clock;
  /** Signing in to remote MCP servers (tests pass port 0 and short deadlines). */
  mcpSignIn?: { callbackPort?: number; timeoutMs?: number; requestTimeoutMs?: number };
}

export function startChatCore(server: ScriptedServer | null, options: HarnessOptions = {}) {
  const root = options.dataDir ? null : makeTempDir('stepwise-chat-');
  const dataDir = options.dataDir ?? path.join(root!, 'data');
  const logs: string[] = [];
  const events: CapturedEvent[] = [];
  if (!options.planReview) seedPlanReviewOff(dataDir);
  const core = createNodeCore({
    dataDir,
    env: options.env ?? {
      OPENAI_BASE_URL: server?.baseUrl,
      OPENAI_API_KEY: TEST_KEY,
      STEPWISE_MODEL: TEST_MODEL,
    },
    chat: {
      // Short enough that a broken test fails fast, long enough for a busy machine.
      requestTimeoutMs: 10_000,
      idleTimeoutMs: 10_000,
      titleTimeoutMs: 10_000,
      log: (line) => logs.push(line),
      ...options.chat,
    },
    routineClock: options.routineClock,
    mcpSignIn: options.mcpSignIn ?? { callbackPort: 0 },
  });
  const listeners = new Set<() => void>();
  core.bus.subscribe((event, payload) => {
    events.push({ event, payload });
    // Listeners remove themselves while this loop runs; Set iteration allows that.
    for (const listener of listeners) listener();
  });

  async function call<N extends CallName>(name: N, params: CallRequest<N>): Promise<CallResponse<N>> {
    const result = await core.dispatch(name, params);
    if (!result.ok) throw new CallFailed(result.error);
    return result.value as CallResponse<N>;
  }

  async function callError<N extends CallName>(name: N, params: CallRequest<N>): Promise<IpcError> {
    const result = await core.dispatch(name, params);
    if (result.ok) throw new Error(`${name} succeeded but a failure was expected`);
    return result.error;
  }

  /** Resolves with the first event (from index `from` on) that matches. */
  function waitForEvent<E extends EventName>(
    event: E,
    match: (payload: EventPayload<E>) => boolean = () => true,
    { from = 0, timeoutMs = 15_000 }: { from?: number; timeoutMs?: number } = {},
  ): Promise<EventPayload<E>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (let i = from; i < events.length; i++) {
          const e = events[i];
          if (e.event === event && match(e.payload as EventPayload<E>)) {
            cleanup();
            resolve(e.payload as EventPayload<E>);
            return true;
          }
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`Timed out waiting for ${event}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(listener);
      };
      const listener = () => void check();
      if (!check()) listeners.add(listener);
    });
  }

  /** Sends and waits for the loop to finish; returns the final status. */
  async function sendAndWait(conversationId: string, content: string) {
    const from = events.length;
    const message = await call('messages:send', { conversationId, content });
    const status = await waitIdle(conversationId, from);
    return { message, status };
  }

  /** The first `chat:status` with running false from index `from` on. */
  function waitIdle(conversationId: string, from = 0) {
    return waitForEvent('chat:status', (s) => s.conversationId === conversationId && !s.running, { from });
  }

  async function newConversation(title?: string) {
    return call('conversations:create', title ? { title } : {});
  }

  function messages(conversationId: string) {
    return core.messages.all(conversationId);
  }

  function eventsOf<E extends EventName>(event: E): Array<EventPayload<E>> {
    return events.filter((e) => e.event === event).map((e) => e.payload as EventPayload<E>);
  }

  return {
    core,
    dataDir,
    logs,
    events,
    call,
    callError,
    waitForEvent,
    waitIdle,
    sendAndWait,
    newConversation,
    messages,
    eventsOf,
    /** Resolves once the core (and every MCP server it started) has stopped. */
    async close() {
      await core.close();
      if (root) removeDir(root);
    },
  };
}

export type ChatHarness = ReturnType<typeof startChatCore>;

/**
 * Per test: a fresh scripted server and a core pointed at it, closed afterwards.
 *   let server: ScriptedServer; let h: ChatHarness;
 *   chatCorePerTest((s, c) => { server = s; h = c; });
 */
export function chatCorePerTest(
  receive: (server: ScriptedServer, harness: ChatHarness) => void,
  options: HarnessOptions = {},
) {
  let server: ScriptedServer | null = null;
  let harness: ChatHarness | null = null;
  beforeEach(async () => {
    server = await startScriptedServer();
    harness = startChatCore(server, options);
    receive(server, harness);
  });
  afterEach(async () => {
    await harness?.close();
    await server?.close();
  });
  return {
    /** Closes this test's core and starts another on the same server, closed after the test as the first is. */
    async restart(next: HarnessOptions): Promise<ChatHarness> {
      await harness?.close();
      harness = startChatCore(server, next);
      return harness;
    },
  };
}
