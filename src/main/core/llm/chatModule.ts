// Puts the chat into the core: the chat engine (the capability itself, `core.chat.send(…)`)
// and its contract handlers: sending, starting, retrying and status. (Stop is stop/;
// model lists and API keys belong to providers/.)
import { createChatEngine, type ChatEngine, type ChatEngineDeps } from './chatEngine';
import type { HandlersFor } from '../../../shared/contract';
import type { chatCalls } from '../../../shared/chatContract';

type ChatCalls = HandlersFor<typeof chatCalls>;

export function chatHandlers(engine: ChatEngine): ChatCalls {
  return {
    'messages:send': ({ conversationId, content, attachments }) =>
      engine.send(conversationId, content, 'user', attachments),
    'conversations:start': ({ id, content, autopilot, attachments, planReview }) =>
      engine.startConversation(id, content, autopilot, attachments, planReview),
    'chat:retry': ({ conversationId }) => engine.retry(conversationId),
    'chat:status': ({ conversationId }) => engine.status(conversationId),
  };
}

export function createChat(deps: ChatEngineDeps) {
  const engine = createChatEngine(deps);
  return { ...engine, handlers: chatHandlers(engine) };
}

export type Chat = ReturnType<typeof createChat>;
