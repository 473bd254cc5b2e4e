// Puts conversations into the core: the conversation repository (the capability itself,
// `core.conversations.get(id)`), its messages and the contract handlers of both.
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { conversationHandlers } from './conversationHandlers';
import { createWriteWarmUp } from './writeWarmUp';
import { createConversationRepo } from './conversationRepo';
import { createMessageRepo, type MessageAttachments, type MessageCounts } from './messageRepo';

export function createConversations(deps: {
  db: Db;
  bus: EventBus;
  now: () => number;
  files: MessageAttachments;
  /** Token counts kept with the messages (storedTokens.ts). */
  counts?: MessageCounts;
}) {
  const repo = createConversationRepo(deps.db, deps.now);
  const messages = createMessageRepo(deps.db, deps.now, deps.files, deps.counts);
  // A reply the last process was still writing is marked interrupted before anything reads it.
  messages.recoverInterrupted();
  return {
    ...repo,
    messages,
    handlers: conversationHandlers({ conversations: repo, messages, bus: deps.bus }),
    /** The session's first commit, made in idle time (writeWarmUp.ts). */
    warmUpWrite: createWriteWarmUp(deps.db),
  };
}

export type Conversations = ReturnType<typeof createConversations>;
