// Unsent composer text per conversation, kept in SQLite so a draft survives a reload and
// a restart (the browser host's origin changes port between launches, so the page's own
// storage would not). The page saves with a debounce; an empty text forgets the draft.
import type { Draft } from '../../../shared/drafts';
import type { Db } from '../db/openDatabase';
import { createConversationTextStore } from '../db/conversationText';
import type { HandlersFor } from '../../../shared/contract';
import type { draftCalls } from '../../../shared/draftsContract';

interface DraftRow {
  conversation_id: string;
  content: string;
  updated_at: number;
  stored: number;
}

/** More than anyone keeps open; the oldest beyond it are not listed. */
const LIST_LIMIT = 1000;

export function createDrafts(deps: { db: Db; now: () => number }) {
  const { db, now } = deps;
  const list = db.prepare<[number], DraftRow>(
    `SELECT d.conversation_id, d.content, d.updated_at, (c.id IS NOT NULL) AS stored
     FROM drafts d LEFT JOIN conversations c ON c.id = d.conversation_id
     ORDER BY d.updated_at DESC, d.conversation_id LIMIT ?`,
  );
  const texts = createConversationTextStore(db, now, { table: 'drafts', column: 'content' });
  const save = (conversationId: string, content: string): boolean => texts.set(conversationId, content);

  function all(): Draft[] {
    return list.all(LIST_LIMIT).map((row) => ({
      conversationId: row.conversation_id,
      content: row.content,
      updatedAt: row.updated_at,
      stored: row.stored === 1,
    }));
  }

  const handlers: HandlersFor<typeof draftCalls> = {
    'drafts:list': () => all(),
    'drafts:save': ({ conversationId, content }) => ({ saved: save(conversationId, content) }),
  };

  return { handlers, drafts: { all, save } };
}

export type Drafts = ReturnType<typeof createDrafts>;
