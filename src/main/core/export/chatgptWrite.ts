// Stores the conversations read from a ChatGPT export: all of them or none. One file can
// hold tens of thousands of messages (written in one transaction they held every other
// call for over a second, docs/performance.md), so they are written
// under a staging row that hides them, a slice of transactions at a time with other calls
// answered in between, and shown in one last transaction (conversations/importStaging.ts).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/openDatabase';
import { conversationInserter } from '../conversations/conversationRepo';
import { createMessageRepo } from '../conversations/messageRepo';
import { createImportStaging } from '../conversations/importStaging';
import type { ImportedConversation } from './chatgptImport';
import { placements } from '../versions/fileTree';
import { faultPoint } from '../faults/faultPoints';
import { createPace, sliceOver, type Pace } from './pace';

/** Returns the new conversations' ids and titles, in the order given. */
export async function writeChatGptConversations(
  db: Db,
  list: ImportedConversation[],
  now: number,
  pace: Pace = createPace(),
): Promise<Array<{ conversationId: string; title: string }>> {
  const insertConversation = conversationInserter(db);
  const messages = createMessageRepo(db);
  const staging = createImportStaging(db);
  faultPoint('import:before-write');
  const stagingId = staging.open(now);
  try {
    const written: Array<{ conversationId: string; title: string }> = [];
    for (const [index, conversation] of list.entries()) {
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
        parent_id: stagingId,
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
      const writeSlice = db.transaction(() => {
        const start = performance.now();
        while (ids.length < conversation.messages.length && !sliceOver(start)) {
          const i = ids.length;
          const message = conversation.messages[i]!;
          const place = tree.get(i + 1)!;
          ids.push(
            messages.insertId({
              conversationId,
              role: message.role,
              content: message.content,
              createdAt: message.createdAt,
              place: {
                parentId: place.parent === null ? null : ids[place.parent - 1]!,
                chosen: place.chosen,
                shown: place.shown,
              },
            }),
          );
        }
      });
      while (ids.length < conversation.messages.length) {
        writeSlice();
        await pace();
      }
      written.push({ conversationId, title: conversation.title });
    }
    staging.publish(stagingId);
    faultPoint('import:after-write');
    return written;
  } catch (error) {
    staging.drop(stagingId);
    throw error;
  }
}
