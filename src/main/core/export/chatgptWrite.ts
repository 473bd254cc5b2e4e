// Stores the conversations read from a ChatGPT export, all in one transaction: a failure
// writes none of them.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/openDatabase';
import { conversationInserter } from '../conversations/conversationRepo';
import { createMessageRepo } from '../conversations/messageRepo';
import type { ImportedConversation } from './chatgptImport';

/** Returns the new conversations' ids and titles, in the order given. */
export function writeChatGptConversations(db: Db, list: ImportedConversation[]): Array<{ conversationId: string; title: string }> {
  const insertConversation = conversationInserter(db);
  const messages = createMessageRepo(db);
  return db.transaction(() =>
    list.map((conversation) => {
      const conversationId = randomUUID();
      insertConversation({
        id: conversationId,
        title: conversation.title,
        created_at: conversation.createdAt,
        // ChatGPT's own last activity, so the sidebar keeps ChatGPT's order.
        updated_at: conversation.updatedAt,
        pinned: 0,
        title_source: 'user',
        parent_id: null,
        autopilot: null,
      });
      for (const message of conversation.messages) {
        messages.insert({ conversationId, role: message.role, content: message.content, createdAt: message.createdAt });
      }
      return { conversationId, title: conversation.title };
    }),
  )();
}
