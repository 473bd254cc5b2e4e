// Names a conversation still called "New conversation" after its main agent's turn
// (autoTitle.ts makes the title). One request per conversation at a time; all of them
// are aborted when the chat engine shuts down.
import type { Disposable } from '../../../shared/event';
import { DEFAULT_TITLE, type ConversationRepo } from '../conversations/conversationRepo';
import type { LoopDeps, LoopOutcome } from './agentLoop';
import { makeTitle } from './autoTitle';

export interface AutoTitleDeps extends Pick<LoopDeps, 'messages' | 'providers' | 'settings' | 'options'> {
  conversations: ConversationRepo;
  /** Pushes the conversation's new summary. */
  changed(conversationId: string): void;
  /** An error as a line for the log, with keys redacted. */
  describe(error: unknown): string;
}

export function createAutoTitles(deps: AutoTitleDeps): Disposable & {
  after(conversationId: string, outcome: LoopOutcome): void;
} {
  const { conversations, messages, options } = deps;
  const titling = new Map<string, AbortController>();
  let disposed = false;

  return {
    after(conversationId, outcome) {
      const conversation = conversations.get(conversationId);
      if (!conversation || conversation.titleSource !== 'auto' || conversation.title !== DEFAULT_TITLE) return;
      // A stopped reply is no exchange to name: the next completed reply titles the conversation.
      if (disposed || outcome.kind === 'stopped') return;
      if (titling.has(conversationId)) return;
      const controller = new AbortController();
      titling.set(conversationId, controller);
      const askModel = outcome.kind === 'complete' || (outcome.kind === 'error' && outcome.error.kind === 'rounds');
      let connection;
      try {
        connection = deps.providers.forConversation(conversationId);
      } catch {
        titling.delete(conversationId);
        return;
      }
      void makeTitle({
        connection,
        temperature: deps.settings.effective().temperature,
        history: messages.list(conversationId, 0, 20).items,
        askModel,
        signal: controller.signal,
        timeoutMs: options.titleTimeoutMs,
        log: options.log,
      })
        .then((title) => {
          if (disposed || !title) return;
          if (conversations.setAutoTitle(conversationId, title)) deps.changed(conversationId);
        })
        .catch((error: unknown) => options.log(`[stepwise] auto-title failed: ${deps.describe(error)}`))
        .finally(() => titling.delete(conversationId));
    },
    dispose() {
      disposed = true;
      for (const controller of titling.values()) controller.abort();
    },
  };
}
