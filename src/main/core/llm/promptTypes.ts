// Pieces of the system prompt contributed by other modules (the task list block, the
// "what the user changed" notice). The agent loop asks every provider before every
// request, so the model always sees the current state.
export interface PromptContext {
  conversationId: string;
  agentId: string;
}

export interface PromptProvider {
  /** The user's own instructions: placed before Stepwise's guidance, in the order added. */
  lead?: boolean;
  /** Text appended to the system prompt, or null for nothing. */
  systemSection(ctx: PromptContext): string | null;
  /** Called after a request that included this provider's section was sent. */
  afterRequest?(ctx: PromptContext): void;
}
