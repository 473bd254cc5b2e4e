// Stores the conversations read from a ChatGPT export, all in one transaction: a failure
// writes none of them.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/openDatabase';
import { conversationInserter } from '../conversations/conversationRepo';
import { createMessageRepo } from '../conversations/messageRepo';
import type { ImportedConversation } from './chatgptImport';
import { placements } from '../versions/fileTree';
import { faultPoint } from '../faults/faultPoints';

/** Returns the new conversations' ids and titles, in the order given. */
export function writeChatGptConversations(
  db: Db,
  list: ImportedConversation[],
): Array<{ conversationId: string; title: string }> {
  const insertConversation = conversationInserter(db);
  const messages = createMessageRepo(db);
  faultPoint('import:before-write');
  const written = db.transaction(() =>
    list.map((conversation, index) => {
      if (index === 1) faultPoint('import:in-write');
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
      // The branch ChatGPT showed is shown; the others are versions (numbered 1..n here).
      const tree = placements(
        conversation.messages.map((m, i) => ({
          id: i + 1,
          parent: m.parent === null ? null : m.parent + 1,
          shown: m.shown,
        })),
      );
      const ids: number[] = [];
      conversation.messages.forEach((message, i) => {
        const place = tree.get(i + 1)!;
        const parentId = place.parent === null ? null : ids[place.parent - 1]!;
        const stored = messages.insert({
          conversationId,
          role: message.role,
          content: message.content,
          createdAt: message.createdAt,
          place: { parentId, chosen: place.chosen, shown: place.shown },
        });
        ids.push(stored.id);
      });
      return { conversationId, title: conversation.title };
    }),
  )();
  faultPoint('import:after-write');
  return written;
}
