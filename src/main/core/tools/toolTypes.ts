// What a tool is. A tool never crashes the agent loop: the registry turns every
// failure (unknown name, bad JSON, schema errors, a throwing handler) into a result
// text the model can act on.
import type { z } from 'zod';

export interface ToolContext {
  conversationId: string;
  /** `main` for the conversation's own agent, a worker id (e.g. `worker-2`) otherwise. */
  agentId: string;
  signal: AbortSignal;
  /** The model's id for this call (absent when a tool is run outside the agent loop). */
  callId?: string;
  /** Where the call's card is stored (a worker's own transcript); defaults to `conversationId`. */
  transcriptId?: string;
}

/** How a call ended, for the task ledger: ran fine, failed, refused by the user, or stopped. */
export type ToolOutcome = 'ok' | 'error' | 'denied' | 'cancelled';

/** A handler's answer when it is more than text (e.g. a denial or an error the tool reported). */
export interface ToolReply {
  kind: 'tool-reply';
  content: string;
  outcome: ToolOutcome;
}

export function toolReply(content: string, outcome: ToolOutcome): ToolReply {
  return { kind: 'tool-reply', content, outcome };
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Shown to the model; says what the tool does and when to use it. */
  description: string;
  parameters: S;
  /** Who is offered the tool: the conversation's own agent, workers, or (default) both. */
  availableTo?: 'main' | 'workers';
  /**
   * A JSON Schema to offer the model as is (MCP tools: the server's own schema, which the
   * server validates). `parameters` then only has to accept the object.
   */
  inputSchema?: Record<string, unknown>;
  handler: (args: z.output<S>, ctx: ToolContext) => string | ToolReply | Promise<string | ToolReply>;
}

export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

export interface ToolRunResult {
  /** The text stored as the tool message and sent back to the model. */
  content: string;
  ok: boolean;
  outcome: ToolOutcome;
}
