// The user's instructions to the model: the default system prompt from Settings and each
// conversation's own instructions, stored in SQLite. A lead prompt provider puts them first
// in every request (workers' included), before Stepwise's guidance and the task planning.
import type { Db } from '../db/openDatabase';
import type { Handlers } from '../ipc/dispatcher';
import type { PromptRegistry } from '../llm/systemPrompt';

export function createInstructionsModule(deps: { db: Db; now: () => number; prompts: PromptRegistry; systemPrompt: () => string }) {
  const { db, now } = deps;
  const select = db.prepare<[string], { text: string }>('SELECT text FROM conversation_instructions WHERE conversation_id = ?');
  const upsert = db.prepare(
    `INSERT INTO conversation_instructions (conversation_id, text, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (conversation_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM conversation_instructions WHERE conversation_id = ?');
  const isStored = db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?');
  // Only one new (unsent) conversation exists at a time; instructions of older unsent ones
  // belong to drafts the user abandoned.
  const forgetOtherNew = db.prepare(
    'DELETE FROM conversation_instructions WHERE conversation_id <> ? AND conversation_id NOT IN (SELECT id FROM conversations)',
  );

  const get = (conversationId: string): string => select.get(conversationId)?.text ?? '';

  function set(conversationId: string, text: string): string {
    const trimmed = text.trim();
    db.transaction(() => {
      if (!trimmed) remove.run(conversationId);
      else upsert.run(conversationId, trimmed, now());
      if (!isStored.get(conversationId)) forgetOtherNew.run(conversationId);
    })();
    return trimmed;
  }

  deps.prompts.add({
    lead: true,
    systemSection: ({ conversationId }) => {
      const parts = [deps.systemPrompt().trim(), get(conversationId)].filter(Boolean);
      return parts.length ? parts.join('\n\n') : null;
    },
  });

  const handlers: Pick<Handlers, 'instructions:get' | 'instructions:set'> = {
    'instructions:get': ({ conversationId }) => ({ text: get(conversationId) }),
    'instructions:set': ({ conversationId, text }) => ({ text: set(conversationId, text) }),
  };

  return { instructions: { get, set }, handlers };
}
