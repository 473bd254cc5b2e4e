// Contract handlers for conversations and their messages.
import { notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import type { ConversationRepo } from './conversationRepo';
import type { MessageRepo } from './messageRepo';
import type { HandlersFor } from '../../../shared/contract';
import type { conversationCalls } from '../../../shared/conversationsContract';

type ConversationCalls = HandlersFor<typeof conversationCalls>;

export function conversationHandlers(deps: {
  conversations: ConversationRepo;
  messages: MessageRepo;
  bus: EventBus;
}): ConversationCalls {
  const { conversations, messages, bus } = deps;

  function changed(id: string, kind: 'created' | 'updated') {
    bus.emit('conversations:changed', { id, kind, conversation: conversations.summary(id) ?? null });
  }

  function mustExist(id: string) {
    const conversation = conversations.get(id);
    if (!conversation) throw notFound(`Conversation ${id}`);
    return conversation;
  }

  return {
    'conversations:list': ({ query, offset, limit }) => conversations.list(query, offset, limit),
    'conversations:get': ({ id }) => mustExist(id),
    'conversations:create': ({ title }) => {
      const created = conversations.create(title);
      changed(created.id, 'created');
      return created;
    },
    'conversations:rename': ({ id, title }) => {
      mustExist(id);
      const renamed = conversations.rename(id, title, 'user')!;
      changed(id, 'updated');
      return renamed;
    },
    'conversations:setPinned': ({ id, pinned }) => {
      mustExist(id);
      const updated = conversations.setPinned(id, pinned)!;
      changed(id, 'updated');
      return updated;
    },
    'conversations:delete': ({ id }) => {
      mustExist(id);
      conversations.delete(id);
      bus.emit('conversations:changed', { id, kind: 'deleted', conversation: null });
      return { id };
    },
    'messages:list': ({ conversationId, before, limit }) => {
      mustExist(conversationId);
      return messages.pageBefore(conversationId, before, limit);
    },
    'messages:get': ({ conversationId, id }) => {
      const message = messages.getLive(id);
      if (!message || message.conversationId !== conversationId) throw notFound(`Message ${id}`);
      return message;
    },
  };
}
