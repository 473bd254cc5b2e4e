// The tools the model may call. `run` never throws: every failure (unknown name, bad
// JSON, schema errors, a throwing handler, a cancelled run) becomes a result text the
// model can read and act on, so one bad call never ends the agent loop.
import { Emitter } from '../../../shared/event';
import { z } from 'zod';
import { isToolResult, type ToolContext, type ToolDefinition, type ToolRunResult } from './toolTypes';
import { explainInvalid, sentence } from './argumentErrors';

export { describeIssues } from './argumentErrors';

/** What the OpenAI API expects in `tools`: a function name, description and JSON Schema. */
export interface ApiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const CANCELLED_BY_USER = 'cancelled by user';
/** Stop after the call's effect had left Stepwise (ToolContext.running): it may have happened. */
export const CANCELLED_WHILE_RUNNING =
  'cancelled by user while it was running: it may have run. Check whether it had its effect before repeating it.';

/** Gets tools ready before a request (e.g. starts the MCP servers a conversation needs). */
export type ToolPreparer = (ctx: Omit<ToolContext, 'callId'>) => Promise<void>;

/**
 * Decides before a call is made whether it may run (plan review). `refused` calls count
 * towards the turn's limit of refusals; a promise holds the call until it is answered.
 * `args` is the call's JSON object, parsed once for the gate and the tool, or undefined
 * when the text is not one (the tool's own validation explains that, after the gate).
 */
export type ToolGate = (
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext,
) => ToolRefusal | null | Promise<ToolRefusal | null>;
export interface ToolRefusal {
  content: string;
  refused: boolean;
  /** `held`: not made because the plan waits for the user's approval (plan review); else an error. */
  outcome?: 'held';
}

/** A call whose handler ran and succeeded. */
export interface ToolRan {
  tool: ToolDefinition;
  ctx: ToolContext;
}

export function createToolRegistry() {
  const tools = new Map<string, { tool: ToolDefinition; schema: Record<string, unknown> }>();
  const preparers = new Set<ToolPreparer>();
  let gate: ToolGate | null = null;
  // A listener's failure is logged, never the call's: the tool already ran.
  const ranEmitter = new Emitter<ToolRan>({
    onListenerError: (error) => console.error('[stepwise] a listener of a tool call failed:', error),
  });
  const ran = (tool: ToolDefinition, ctx: ToolContext) => ranEmitter.fire({ tool, ctx });

  return {
    /** Adds a tool; returns a function that removes it again. */
    register<S extends z.ZodType>(tool: ToolDefinition<S>): () => void {
      if (!TOOL_NAME.test(tool.name)) {
        throw new Error(`Tool name ${JSON.stringify(tool.name)} must be 1-64 letters, digits, _ or -`);
      }
      if (tools.has(tool.name)) throw new Error(`A tool named ${tool.name} is already registered`);
      const schema = tool.inputSchema ?? parametersSchema(tool.name, tool.parameters);
      const entry = { tool: tool as unknown as ToolDefinition, schema };
      tools.set(tool.name, entry);
      return () => {
        if (tools.get(tool.name) === entry) tools.delete(tool.name);
      };
    },
    has: (name: string) => tools.has(name),
    /** The one gate every call passes before its arguments are validated (plan review). */
    setGate(next: ToolGate | null): void {
      gate = next;
    },
    /** Told after each call whose handler ran and succeeded (plan review watches the task tools). */
    onRan: ranEmitter.event,
    dispose(): void {
      ranEmitter.dispose();
    },
    /** Runs before every request of an agent loop; returns a remover. */
    addPreparer(preparer: ToolPreparer): () => void {
      preparers.add(preparer);
      return () => void preparers.delete(preparer);
    },
    /**
     * Never rejects: a preparer's failure shows up in its own state, not in the chat. Stop
     * ends the wait at once (a server's start-up may take its whole connect timeout).
     */
    async prepare(ctx: Omit<ToolContext, 'callId'>): Promise<void> {
      const ready = Promise.all([...preparers].map((prepare) => prepare(ctx).catch(() => undefined)));
      await untilAborted(ready, ctx.signal);
    },
    list: (): ToolDefinition[] => [...tools.values()].map((t) => t.tool),
    /** The `tools` array for chat.completions.create, or undefined when there are none. */
    apiTools(agentId = 'main'): ApiTool[] | undefined {
      const offered = [...tools.values()].filter(({ tool }) => offeredTo(tool, agentId));
      if (!offered.length) return undefined;
      return offered.map(({ tool, schema }) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: schema },
      }));
    },
    async run(name: string, rawArguments: string, ctx: ToolContext): Promise<ToolRunResult> {
      const found = tools.get(name);
      const entry = found && offeredTo(found.tool, ctx.agentId, ctx.fromApp) ? found : undefined;
      if (!entry) {
        const known =
          [...tools.values()]
            .filter(({ tool }) => offeredTo(tool, ctx.agentId))
            .map(({ tool }) => tool.name)
            .join(', ') || 'none';
        return fail(`Unknown tool ${JSON.stringify(name)}. Available tools: ${known}.`);
      }
      const args = parseArguments(rawArguments);
      if (gate) {
        const answer = gate(entry.tool, args.ok ? args.value : undefined, ctx);
        const refusal = isPromiseLike(answer) ? await untilAborted(Promise.resolve(answer), ctx.signal) : answer;
        if (refusal === ABORTED) return cancelled();
        if (refusal) {
          return {
            ...fail(refusal.content),
            ...(refusal.outcome ? { outcome: refusal.outcome } : {}),
            ...(refusal.refused ? { refused: true } : {}),
          };
        }
      }
      if (!args.ok) return fail(`Invalid arguments for ${name}: ${sentence(args.error)}`);
      let data: unknown = args.value;
      if (!entry.tool.accepts?.(data)) {
        const parsed = entry.tool.parameters.safeParse(data);
        if (!parsed.success)
          return fail(`Invalid arguments for ${name}: ${explainInvalid(parsed.error, args.value, entry.schema)}`);
        data = parsed.data;
      }
      if (ctx.signal.aborted) return cancelled();
      let running = false;
      const stopped = () => (running ? cancelledWhileRunning() : cancelled());
      try {
        const returned = entry.tool.handler(data, { ...ctx, running: () => void (running = true) });
        // A handler that answered at once (the task tools) has nothing left to cancel.
        const content = isPromiseLike(returned) ? await untilAborted(Promise.resolve(returned), ctx.signal) : returned;
        if (content === ABORTED) return stopped();
        const result: ToolRunResult = isToolResult(content)
          ? { ok: content.outcome === 'ok', content: content.content, outcome: content.outcome }
          : { ok: true, content: typeof content === 'string' ? content : JSON.stringify(content) };
        if (result.ok) ran(entry.tool, ctx);
        return result;
      } catch (error) {
        if (ctx.signal.aborted) return stopped();
        const message = error instanceof Error ? error.message : String(error);
        return fail(`Tool ${name} failed: ${sentence(message || 'unknown error')}`);
      }
    },
  };
}

export type ToolRegistry = ReturnType<typeof createToolRegistry>;

/** Workers never see `start_task` (no recursion); only workers see `ask_user`; only apps call app-only tools. */
function offeredTo(tool: ToolDefinition, agentId: string, fromApp = false): boolean {
  if (tool.availableTo === 'apps') return fromApp;
  if (tool.availableTo === 'main') return agentId === 'main';
  if (tool.availableTo === 'workers') return agentId !== 'main';
  return true;
}

function fail(content: string): ToolRunResult {
  return { ok: false, content, outcome: 'error' };
}

function cancelled(): ToolRunResult {
  return { ok: false, content: CANCELLED_BY_USER, outcome: 'cancelled' };
}

function cancelledWhileRunning(): ToolRunResult {
  return { ok: false, content: CANCELLED_WHILE_RUNNING, outcome: 'cancelled' };
}

function parametersSchema(name: string, parameters: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(parameters, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  if (schema.type !== 'object') throw new Error(`The parameters of tool ${name} must be a zod object schema`);
  return schema;
}

/** Model output is untrusted: an empty string means "no arguments"; anything else must be a JSON object. */
export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!raw.trim()) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `the arguments are not valid JSON (${detail}). Send a JSON object.` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the arguments must be a JSON object' };
  }
  return { ok: true, value };
}

const ABORTED = Symbol('aborted');

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** A handler that ignores its signal must not keep a stopped loop waiting. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
