// What a tool is. A tool never crashes the agent loop: the registry turns every
// failure (unknown name, bad JSON, schema errors, a throwing handler) into a result
// text the model can act on.
import type { z } from 'zod';
import type { ToolOutcome } from '../../../shared/ledger';

export type { ToolOutcome };

export interface ToolContext {
  conversationId: string;
  /** `main` for the conversation's own agent, a worker id (e.g. `worker-2`) otherwise. */
  agentId: string;
  signal: AbortSignal;
  /** The model's id for this call (absent when a tool is run outside the agent loop). */
  callId?: string;
  /** Where the call's card is stored (a worker's own transcript); defaults to `conversationId`. */
  transcriptId?: string;
  /** The reply that made the call, in `transcriptId` (absent outside the agent loop). */
  messageId?: number;
  /**
   * Called by a handler as its effect leaves Stepwise (an MCP request sent, after any
   * approval): a Stop from then on may come too late, so the call reads "may have run".
   */
  running?: () => void;
  /** The names of every call in the same reply (plan review: a list written beside the call). */
  batch?: readonly string[];
  /** Made by an MCP App in a step, not by a model: tools only apps may call are found too. */
  fromApp?: boolean;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Shown to the model; says what the tool does and when to use it. */
  description: string;
  parameters: S;
  /**
   * Who is offered the tool: the conversation's own agent, workers, or (default) both.
   * `apps`: no model; only MCP Apps may call it (an MCP tool whose visibility is the app's only).
   */
  availableTo?: 'main' | 'workers' | 'apps';
  /**
   * A JSON Schema to offer the model as is (MCP tools: the server's own schema, which the
   * server validates). `parameters` then only has to accept the object.
   */
  inputSchema?: Record<string, unknown>;
  /**
   * Changes nothing outside the conversation, so it runs while a plan waits for the user's
   * approval (plan review): the task tools, `think`, `ask_user`, `get_current_time`,
   * `start_task` (a worker's own calls pass the gate), read-only MCP tools. Absent: the
   * tool is registered as acting.
   */
  safeWhilePlanning?: boolean | (() => boolean);
  /**
   * A cheaper check for the arguments models usually send: true only for arguments that
   * `parameters` accepts and would return unchanged (no key stripped, nothing converted),
   * which then go to the handler as they are. Anything else is parsed by `parameters`.
   */
  accepts?: (args: unknown) => args is z.output<S>;
  /** Text for the model; or `toolResult(outcome, text)` to say the call was denied, cancelled or failed. */
  handler: (args: z.output<S>, ctx: ToolContext) => string | ToolResult | Promise<string | ToolResult>;
}

export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

export interface ToolRunResult {
  /** The text stored as the tool message and sent back to the model. */
  content: string;
  ok: boolean;
  /** What the task ledger records; absent means `ok` or `error` following `ok`. */
  outcome?: ToolOutcome;
  /** Refused or held before it ran because the plan is not approved (plan review); counts towards the turn's limit. */
  refused?: boolean;
}

const TOOL_RESULT = Symbol('stepwise.toolResult');

/** A handler's result that carries its outcome (see docs/tools.md, "Outcomes"). */
export interface ToolResult {
  readonly [TOOL_RESULT]: true;
  readonly content: string;
  readonly outcome: ToolOutcome;
}

/**
 * What a handler (or the approvals around it) returns when a call did not simply run:
 * `toolResult('denied', 'The user denied this call.')`, `toolResult('cancelled', …)`,
 * `toolResult('error', …)` for a failure reported as a value (an MCP `isError`).
 */
export function toolResult(outcome: ToolOutcome, content: string): ToolResult {
  return { [TOOL_RESULT]: true, content, outcome };
}

export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as Partial<ToolResult>)[TOOL_RESULT] === true;
}

/** The ledger's outcome of a finished run. */
export function outcomeOf(result: ToolRunResult): ToolOutcome {
  return result.outcome ?? (result.ok ? 'ok' : 'error');
}

/** One tool call as the agent loop runs it, for whoever keeps a record (the task ledger). */
export interface ToolCallStart {
  /** The conversation whose tasks the agent works on (the parent, for a worker). */
  scopeId: string;
  /** Where the call and its result are stored (a worker's own transcript). */
  transcriptId: string;
  agentId: string;
  toolCallId: string;
  name: string;
  arguments: string;
}

/**
 * Told about every tool call the agent loop runs. `started` is called as the call starts;
 * `stored` and `finished` inside the transaction that stores the result message, and what
 * `finished` returns runs after that transaction committed (to push events).
 */
export interface ToolCallObserver {
  started(call: ToolCallStart): {
    /** The text to store and send for this result (a task deleted while the call waited is named in it). */
    stored(result: ToolRunResult): string;
    finished(result: ToolRunResult, messageId: number): () => void;
  };
}
