// Message versions: a new version of a reply or of the user's message, and switching
// between versions; this feature's part of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ChatStatus, ConversationId, Message, MessageContent } from './domain';

export const versionCalls = {
  /**
   * A new version of the reply to the user message before `messageId` (default: the last
   * reply); the old reply stays as a version.
   */
  'chat:regenerate': call(
    z.strictObject({ conversationId: ConversationId, messageId: z.number().int().optional() }),
    ChatStatus,
  ),
  /** A new version of the last user message, sent again (the old one stays as a version). */
  'chat:editLast': call(z.strictObject({ conversationId: ConversationId, content: MessageContent }), Message),
  /** A new version of any of the user's messages on the shown branch, sent again. */
  'chat:edit': call(
    z.strictObject({ conversationId: ConversationId, messageId: z.number().int(), content: MessageContent }),
    Message,
  ),
  /** Shows version `index` (1-based) of the message's versions; what follows is that version's branch. */
  'messages:showVersion': call(
    z.strictObject({ conversationId: ConversationId, messageId: z.number().int(), index: z.number().int().min(1) }),
    Message,
  ),
} as const;

export const versionEvents = {
  /** Another version was chosen: the shown branch from `messageId` on is different (reload it). */
  'messages:switched': z.object({ conversationId: ConversationId, messageId: z.number().int() }),
} as const;
