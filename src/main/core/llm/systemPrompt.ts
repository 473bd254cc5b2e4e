// The system prompt: base guidance plus every registered PromptProvider's section,
// rebuilt before every request so the model always sees the current state.
import type { PromptContext, PromptProvider } from './promptTypes';

export const BASE_GUIDANCE = [
  'You are Stepwise, a helpful assistant in a desktop chat app.',
  'Answer in Markdown. Use fenced code blocks with a language tag for code.',
  'When a tool would give a better answer than guessing, call it. If a tool result says the call was invalid, fix the arguments and try again.',
].join('\n');

export function createPromptRegistry(onError: (message: string) => void = console.error) {
  const providers = new Set<PromptProvider>();

  return {
    /** Adds a provider; returns a function that removes it again. */
    add(provider: PromptProvider): () => void {
      providers.add(provider);
      return () => providers.delete(provider);
    },
    /** The full system prompt and the providers that contributed to it. */
    build(ctx: PromptContext): { text: string; contributors: PromptProvider[] } {
      const leads: string[] = [];
      const parts = [BASE_GUIDANCE];
      const contributors: PromptProvider[] = [];
      for (const provider of providers) {
        let section: string | null;
        try {
          section = provider.systemSection(ctx);
        } catch (error) {
          // A broken provider must not stop the chat; the rest of the prompt still works.
          onError(`[stepwise] prompt provider failed: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        if (section && section.trim()) {
          (provider.lead ? leads : parts).push(section.trim());
          contributors.push(provider);
        }
      }
      return { text: [...leads, ...parts].join('\n\n'), contributors };
    },
    /** Tells the providers whose sections went out that the request was sent. */
    sent(ctx: PromptContext, contributors: PromptProvider[]): void {
      for (const provider of contributors) {
        try {
          provider.afterRequest?.(ctx);
        } catch (error) {
          onError(
            `[stepwise] prompt provider afterRequest failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    },
  };
}

export type PromptRegistry = ReturnType<typeof createPromptRegistry>;
