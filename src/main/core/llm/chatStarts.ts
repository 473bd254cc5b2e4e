// The chat calls that store a conversation's opening messages before its loop starts: a new
// conversation from its draft, or messages given whole (an MCP prompt), each in one transaction.
import type { PlanReviewMode } from '../../../shared/planContract';
import type { Conversation, Message } from '../../../shared/domain';
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { MessageRepo } from '../conversations/messageRepo';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { AppError } from '../ipc/dispatcher';

/** A message that is exactly this clears the conversation's task lists instead of asking the model. */
export const CLEAR_COMMAND = '/clear';

export interface ChatStartsDeps {
  db: Db;
  messages: MessageRepo;
  conversations: ConversationRepo;
  bus: EventBus;
  /** Refuses while Stepwise shuts down. */
  mustBeOpen(): void;
  mustBeIdle(conversationId: string): void;
  start(conversationId: string): void;
  stored(message: Message): void;
  conversationChanged(conversationId: string): void;
}

const started = () =>
  new AppError('conflict', 'This conversation has already been started. Open it from the sidebar to continue it.');

export function chatStarts(deps: ChatStartsDeps) {
  const { db, messages, conversations, bus } = deps;
  return {
    /**
     * Stores a new conversation under `id` (its draft's id) with its first message, in one
     * transaction, then starts the loop. Refused when the id is taken: nothing is stored.
     */
    startConversation(
      id: string,
      content: string,
      autopilot?: boolean,
      attachments?: string[],
      planReview?: PlanReviewMode,
    ): { conversation: Conversation; message: Message } {
      deps.mustBeOpen();
      if (content.trim() === CLEAR_COMMAND && !attachments?.length) {
        throw new AppError('conflict', 'There is nothing to clear in a new conversation. Type a message instead.');
      }
      if (conversations.get(id)) throw started();
      const { conversation, message } = db.transaction(() => {
        const created = conversations.create(undefined, { id, autopilot, planReview });
        return {
          conversation: created,
          message: messages.insert({ conversationId: id, role: 'user', content, origin: 'user', attachments }),
        };
      })();
      bus.emit('conversations:changed', { id, kind: 'created', conversation: conversations.summary(id) ?? null });
      deps.stored(message);
      deps.start(id);
      return { conversation, message };
    },

    /**
     * Messages given whole, roles kept (an MCP prompt that holds a conversation): stored in
     * order, in a new conversation (`create`) or an idle one; the model answers a last user message.
     */
    sendGiven(
      conversationId: string,
      given: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>,
      create?: { autopilot?: boolean; planReview?: PlanReviewMode },
    ): Message[] {
      deps.mustBeOpen();
      if (!create) deps.mustBeIdle(conversationId);
      else if (conversations.get(conversationId)) throw started();
      const inserted = db.transaction(() => {
        if (create) conversations.create(undefined, { id: conversationId, ...create });
        const list = given.map((m) =>
          messages.insert({ conversationId, role: m.role, content: m.content, origin: 'user' }),
        );
        conversations.touch(conversationId);
        return list;
      })();
      if (create)
        bus.emit('conversations:changed', {
          id: conversationId,
          kind: 'created',
          conversation: conversations.summary(conversationId) ?? null,
        });
      inserted.forEach(deps.stored);
      if (!create) deps.conversationChanged(conversationId);
      if (given.at(-1)?.role === 'user') deps.start(conversationId);
      return inserted;
    },
  };
}
