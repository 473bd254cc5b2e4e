// Contract handlers of the chat engine: sending, stopping, retrying, editing, the model
// list and the API key.
import { NotFoundError } from 'openai';
import type { Handlers } from '../ipc/dispatcher';
import { AppError } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import type { SettingsService } from '../settings/settingsService';
import type { ChatEngineOptions } from './agentLoop';
import type { ChatEngine } from './chatEngine';
import { hostOf, toChatError } from './chatErrors';
import { createClient } from './openaiClient';

type ChatCalls = Pick<
  Handlers,
  | 'messages:send'
  | 'conversations:start'
  | 'chat:retry'
  | 'chat:regenerate'
  | 'chat:editLast'
  | 'chat:status'
  | 'models:list'
  | 'settings:setApiKey'
>;

export function chatHandlers(deps: {
  engine: ChatEngine;
  settings: SettingsService;
  bus: EventBus;
  options: ChatEngineOptions;
}): ChatCalls {
  const { engine, settings, bus } = deps;
  return {
    'messages:send': ({ conversationId, content }) => engine.send(conversationId, content),
    'conversations:start': ({ id, content, autopilot }) => engine.startConversation(id, content, autopilot),
    'chat:retry': ({ conversationId }) => engine.retry(conversationId),
    'chat:regenerate': ({ conversationId }) => engine.regenerate(conversationId),
    'chat:editLast': ({ conversationId, content }) => engine.editLast(conversationId, content),
    'chat:status': ({ conversationId }) => engine.status(conversationId),
    'models:list': async () => ({ models: await listModels(settings, deps.options) }),
    'settings:setApiKey': ({ key }) => {
      settings.setApiKey(key);
      const view = settings.view();
      bus.emit('settings:changed', view);
      return view;
    },
  };
}

/** GET /v1/models through the SDK, sorted; a server without the endpoint gets a clear answer. */
export async function listModels(settings: SettingsService, options: ChatEngineOptions): Promise<string[]> {
  const effective = settings.effective();
  const apiKey = settings.apiKey();
  const host = hostOf(effective.baseUrl);
  try {
    const { client } = createClient(effective, apiKey, { ...options, maxRetries: 1 }, { model: false });
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      if (typeof model?.id === 'string' && model.id) ids.push(model.id);
      if (ids.length >= 5000) break;
    }
    if (!ids.length) {
      throw new AppError('unavailable', `${host} lists no models. Type the model name in Settings instead.`);
    }
    return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof NotFoundError) {
      throw new AppError('unavailable', `${host} does not offer a model list (/models). Type the model name in Settings instead.`);
    }
    throw new AppError('unavailable', toChatError(error, { model: effective.model, baseUrl: effective.baseUrl, apiKey }).message);
  }
}
