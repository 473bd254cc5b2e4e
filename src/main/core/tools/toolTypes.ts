// What a tool is. A tool never crashes the agent loop: the registry turns every
// failure (unknown name, bad JSON, schema errors, a throwing handler) into a result
// text the model can act on.
import type { z } from 'zod';

export interface ToolContext {
  conversationId: string;
  /** `main` for the conversation's own agent, a worker id (e.g. `worker-2`) otherwise. */
  agentId: string;
  signal: AbortSignal;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Shown to the model; says what the tool does and when to use it. */
  description: string;
  parameters: S;
  /** Who is offered the tool: the conversation's own agent, workers, or (default) both. */
  availableTo?: 'main' | 'workers';
  handler: (args: z.output<S>, ctx: ToolContext) => string | Promise<string>;
}

export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

export interface ToolRunResult {
  /** The text stored as the tool message and sent back to the model. */
  content: string;
  ok: boolean;
}
