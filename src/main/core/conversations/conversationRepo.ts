// Conversations in SQLite. Paged, ordered pinned-first then by last activity, so the
// sidebar stays fast with tens of thousands of rows.
import { randomUUID } from 'node:crypto';
import type { Conversation, ConversationSummary } from '../../../shared/domain';
import type { PlanReviewMode } from '../../../shared/planContract';
import type { Db } from '../db/openDatabase';
import { createConversationSearch, ftsQuery } from './conversationSearch';
import type { Row } from '../db/tables';

type ConversationRow = Row<'conversations'>;
/** What a conversation is made from: a row, or a row just inserted (no model or folder yet). */
type ConversationFields = Pick<
  ConversationRow,
  'id' | 'title' | 'created_at' | 'updated_at' | 'pinned' | 'title_source'
> &
  Partial<Pick<ConversationRow, 'model_profile' | 'model_name' | 'folder_id'>>;

export const DEFAULT_TITLE = 'New conversation';

export function toConversation(row: ConversationFields): Conversation {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    pinned: row.pinned === 1,
    titleSource: row.title_source,
    model: row.model_profile && row.model_name ? { profileId: row.model_profile, model: row.model_name } : null,
    folderId: row.folder_id ?? null,
  };
}

export type TaskBadgeLookup = (conversationIds: string[]) => Map<string, { done: number; total: number }>;

/** Every column of a new `conversations` row (worker transcripts and imports set them all). */
export interface ConversationInsert {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  pinned: 0 | 1;
  title_source: 'user' | 'auto';
  parent_id: string | null;
  autopilot: 0 | 1 | null;
}

/** The one INSERT for conversations, shared by the repo, workers and import. */
export function conversationInserter(db: Db): (row: ConversationInsert) => void {
  const insert = db.prepare(
    `INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source, parent_id, autopilot)
     VALUES (@id, @title, @created_at, @updated_at, @pinned, @title_source, @parent_id, @autopilot)`,
  );
  return (row) => void insert.run(row);
}

export function createConversationRepo(db: Db, now: () => number = Date.now) {
  const insert = conversationInserter(db);
  const byId = db.prepare<[string], ConversationRow>('SELECT * FROM conversations WHERE id = ?');
  const setTitle = db.prepare('UPDATE conversations SET title = ?, title_source = ? WHERE id = ?');
  const setPinned = db.prepare('UPDATE conversations SET pinned = ? WHERE id = ?');
  const touch = db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM conversations WHERE id = ?');
  const pageAll = db.prepare<[number, number], ConversationRow>(
    'SELECT * FROM conversations WHERE parent_id IS NULL ORDER BY pinned DESC, updated_at DESC, id LIMIT ? OFFSET ?',
  );
  const countAll = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM conversations WHERE parent_id IS NULL');
  const search = createConversationSearch(db);
  const byIds = db.prepare<[string], ConversationRow>(
    'SELECT * FROM conversations WHERE id IN (SELECT value FROM json_each(?))',
  );
  const setAutoTitle = db.prepare("UPDATE conversations SET title = ? WHERE id = ? AND title_source = 'auto'");

  const setModel = db.prepare('UPDATE conversations SET model_profile = ?, model_name = ? WHERE id = ?');
  const setPlanReview = db.prepare<[string, string]>('UPDATE conversations SET plan_review = ? WHERE id = ?');

  let badges: TaskBadgeLookup = () => new Map();
  let newModel: () => Conversation['model'] = () => null;

  function summarize(rows: ConversationRow[]): ConversationSummary[] {
    const lookup = badges(rows.map((r) => r.id));
    return rows.map((row) => ({ ...toConversation(row), tasks: lookup.get(row.id) ?? null }));
  }

  return {
    /** Lets the task module add `k/N` badges without this module knowing about tasks. */
    setTaskBadgeLookup(lookup: TaskBadgeLookup) {
      badges = lookup;
    },
    /** What new conversations talk to (the providers module knows). */
    setNewModelLookup(lookup: () => Conversation['model']) {
      newModel = lookup;
    },
    setModel(id: string, model: Conversation['model']): Conversation | undefined {
      setModel.run(model?.profileId ?? null, model?.model ?? null, id);
      return this.get(id);
    },
    /**
     * `options.id` is the page's draft id when a new conversation is stored by its first
     * send; `options.autopilot` the choice made before it (absent: follow the default).
     */
    create(
      title?: string,
      options: { id?: string; autopilot?: boolean; planReview?: PlanReviewMode } = {},
    ): Conversation {
      const at = now();
      const row: ConversationInsert = {
        id: options.id ?? randomUUID(),
        title: title ?? DEFAULT_TITLE,
        created_at: at,
        updated_at: at,
        pinned: 0,
        title_source: title ? 'user' : 'auto',
        parent_id: null,
        autopilot: options.autopilot === undefined ? null : options.autopilot ? 1 : 0,
      };
      insert(row);
      if (options.planReview) setPlanReview.run(options.planReview, row.id);
      const model = newModel();
      if (model) setModel.run(model.profileId, model.model, row.id);
      return { ...toConversation(row), model };
    },
    get(id: string): Conversation | undefined {
      const row = byId.get(id);
      return row ? toConversation(row) : undefined;
    },
    /** Summaries (with task badges) of the given conversations, in the given order. */
    summaries(ids: string[]): ConversationSummary[] {
      const rows = new Map(byIds.all(JSON.stringify(ids)).map((row) => [row.id, row]));
      return summarize(ids.flatMap((id) => rows.get(id) ?? []));
    },
    summary(id: string): ConversationSummary | undefined {
      const row = byId.get(id);
      return row ? summarize([row])[0] : undefined;
    },
    list(
      query: string,
      offset: number,
      limit: number,
    ): { items: ConversationSummary[]; total: number; capped: boolean } {
      const q = query.trim();
      if (!q) {
        return { items: summarize(pageAll.all(limit, offset)), total: countAll.get()!.n, capped: false };
      }
      const hits = search.find(q, ftsQuery(q), offset, limit);
      const page = byIds.all(JSON.stringify(hits.ids));
      const order = new Map(hits.ids.map((id, index) => [id, index]));
      page.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      const snippets = search.snippets(q, [...hits.messageOf.values()]);
      const items = summarize(page).map((item) => {
        const messageId = hits.messageOf.get(item.id);
        const snippet = messageId === undefined ? undefined : snippets.get(messageId);
        return snippet === undefined ? item : { ...item, match: { messageId: messageId!, snippet } };
      });
      return { items, total: hits.total, capped: hits.capped };
    },
    rename(id: string, title: string, source: 'user' | 'auto' = 'user'): Conversation | undefined {
      setTitle.run(title, source, id);
      return this.get(id);
    },
    /** Sets a generated title unless the user has named the conversation; true when it did. */
    setAutoTitle(id: string, title: string): boolean {
      return setAutoTitle.run(title, id).changes > 0;
    },
    setPinned(id: string, pinned: boolean): Conversation | undefined {
      setPinned.run(pinned ? 1 : 0, id);
      return this.get(id);
    },
    touch(id: string): void {
      touch.run(now(), id);
    },
    delete(id: string): boolean {
      return remove.run(id).changes > 0;
    },
  };
}

export type ConversationRepo = ReturnType<typeof createConversationRepo>;
