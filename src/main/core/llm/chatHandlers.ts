// Contract handlers of the chat engine: sending, stopping, retrying, editing and status.
// (Model lists and API keys belong to providers/.)
import type { Handlers } from '../ipc/dispatcher';
import type { ChatEngine } from './chatEngine';

type ChatCalls = Pick<
  Handlers,
  | 'messages:send'
  | 'conversations:start'
  | 'chat:retry'
  | 'chat:status'
>;

export function chatHandlers(deps: { engine: ChatEngine }): ChatCalls {
  const { engine } = deps;
  return {
    'messages:send': ({ conversationId, content, attachments }) => engine.send(conversationId, content, 'user', attachments),
    'conversations:start': ({ id, content, autopilot, attachments }) => engine.startConversation(id, content, autopilot, attachments),
    'chat:retry': ({ conversationId }) => engine.retry(conversationId),
    'chat:status': ({ conversationId }) => engine.status(conversationId),
  };
}

