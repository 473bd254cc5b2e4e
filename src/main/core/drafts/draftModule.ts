// Unsent composer text per conversation, kept in SQLite so a draft survives a reload and
// a restart (the browser host's origin changes port between launches, so the page's own
// storage would not). The page saves with a debounce; an empty text forgets the draft.
import type { Draft } from '../../../shared/drafts';
import type { Db } from '../db/openDatabase';
import type { Handlers } from '../ipc/dispatcher';

interface DraftRow {
  conversation_id: string;
  content: string;
  updated_at: number;
  stored: number;
}

/** More than anyone keeps open; the oldest beyond it are not listed. */
const LIST_LIMIT = 1000;

export function createDraftModule(deps: { db: Db; now: () => number }) {
  const { db, now } = deps;
  const list = db.prepare<[number], DraftRow>(
    `SELECT d.conversation_id, d.content, d.updated_at, (c.id IS NOT NULL) AS stored
     FROM drafts d LEFT JOIN conversations c ON c.id = d.conversation_id
     ORDER BY d.updated_at DESC, d.conversation_id LIMIT ?`,
  );
  const upsert = db.prepare(
    `INSERT INTO drafts (conversation_id, content, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (conversation_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM drafts WHERE conversation_id = ?');
  const isStored = db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?');
  // There is one new (not yet stored) conversation at a time: the page reopens it on
  // "New conversation". Older ones are left-overs of sends that did store them.
  const forgetOtherNew = db.prepare(
    'DELETE FROM drafts WHERE conversation_id <> ? AND conversation_id NOT IN (SELECT id FROM conversations)',
  );

  function save(conversationId: string, content: string): boolean {
    if (!content) {
      remove.run(conversationId);
      return false;
    }
    db.transaction(() => {
      upsert.run(conversationId, content, now());
      if (!isStored.get(conversationId)) forgetOtherNew.run(conversationId);
    })();
    return true;
  }

  function all(): Draft[] {
    return list.all(LIST_LIMIT).map((row) => ({
      conversationId: row.conversation_id,
      content: row.content,
      updatedAt: row.updated_at,
      stored: row.stored === 1,
    }));
  }

  const handlers: Pick<Handlers, 'drafts:list' | 'drafts:save'> = {
    'drafts:list': () => all(),
    'drafts:save': ({ conversationId, content }) => ({ saved: save(conversationId, content) }),
  };

  return { handlers, drafts: { all, save } };
}

export type DraftModule = ReturnType<typeof createDraftModule>;
