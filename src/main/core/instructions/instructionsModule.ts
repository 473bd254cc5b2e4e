// The user's instructions to the model: the default system prompt from Settings and each
// conversation's own instructions, stored in SQLite. A lead prompt provider puts them first
// in every request (workers' included), before Stepwise's guidance and the task planning.
import type { Db } from '../db/openDatabase';
import { createConversationTextStore } from '../db/conversationText';
import type { PromptRegistry } from '../llm/systemPrompt';
import type { HandlersFor } from '../../../shared/contract';
import type { instructionCalls } from '../../../shared/instructionsContract';

export function createInstructions(deps: {
  db: Db;
  now: () => number;
  prompts: PromptRegistry;
  systemPrompt: () => string;
}) {
  const { db, now } = deps;
  const texts = createConversationTextStore(db, now, { table: 'conversation_instructions', column: 'text' });
  const get = texts.get;
  function set(conversationId: string, text: string): string {
    const trimmed = text.trim();
    texts.set(conversationId, trimmed);
    return trimmed;
  }

  deps.prompts.add({
    lead: true,
    systemSection: ({ conversationId }) => {
      const parts = [deps.systemPrompt().trim(), get(conversationId)].filter(Boolean);
      return parts.length ? parts.join('\n\n') : null;
    },
  });

  const handlers: HandlersFor<typeof instructionCalls> = {
    'instructions:get': ({ conversationId }) => ({ text: get(conversationId) }),
    'instructions:set': ({ conversationId, text }) => ({ text: set(conversationId, text) }),
  };

  return { instructions: { get, set }, handlers };
}
