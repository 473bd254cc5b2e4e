// Messages in SQLite. Streaming replies are rows whose content is rewritten as text
// arrives, so a crash loses at most the text since the last save.
import type {
  Message,
  MessageRole,
  MessageStatus,
  Reasoning,
  ToolCall,
  ToolResultOutcome,
} from '../../../shared/domain';
import type { AttachmentInfo } from '../../../shared/attachments';
import { plumbingStoresText, type Plumbing } from '../../../shared/messageKinds';
import type { Db } from '../db/openDatabase';
import { createHistoryCache } from './historyCache';
import { plainKind, toMessage, type MessageRow } from './messageRows';
import { patchUpdate, type MessagePatch } from './messageUpdate';

export { messageFields, plainKind, toMessage, type MessageRow } from './messageRows';

export interface NewMessage {
  conversationId: string;
  role: MessageRole;
  content: string;
  status?: MessageStatus;
  toolCalls?: ToolCall[] | null;
  toolCallId?: string | null;
  toolName?: string | null;
  error?: string | null;
  origin?: Message['origin'];
  /** Defaults to now; an import keeps the original time. */
  createdAt?: number;
  reasoning?: Reasoning | null;
  /** A summary note: the last message id it stands in for. */
  summaryThrough?: number | null;
  /** Where it goes in the version tree (an import); default: after the shown branch's last message. */
  place?: { parentId: number | null; chosen: boolean; shown: boolean };
  /** Ids of stored attachments (attachments/), in order. */
  attachments?: string[];
  /** How a tool call ended (tool results only). */
  outcome?: ToolResultOutcome | null;
  /** A plumbing message's kind and payload (its role and origin: messageKinds.ts). */
  plumbing?: Plumbing | null;
}

/** The files of user messages (attachments/): read with each message, linked on insert. */
export interface MessageAttachments {
  of(messageId: number): AttachmentInfo[];
  /** The files of every message of a conversation, by message id. */
  ofConversation(conversationId: string): Map<number, AttachmentInfo[]>;
  /** The files of the given messages, by message id, in one query. */
  ofMessages(messageIds: number[]): Map<number, AttachmentInfo[]>;
  /** Throws (so the insert rolls back) when an id is unknown or the files exceed the limits. */
  link(messageId: number, ids: string[]): void;
}

export type { MessagePatch } from './messageUpdate';

/** What the message store tells about the rows it reads (storedTokens.ts). */
export interface MessageCounts {
  /** A row read with its token count. */
  known(content: string, tokens: number): void;
  /** A finished row read without one: count it later and store it. */
  uncounted(id: number, content: string): void;
}

/** What a streaming reply holds in memory between its once-a-second saves. */
export type LiveReply = () => Pick<Message, 'content' | 'toolCalls' | 'reasoning'>;

export function createMessageRepo(
  db: Db,
  now: () => number = Date.now,
  files?: MessageAttachments,
  counts?: MessageCounts,
) {
  // Every row read tells its stored token count, or that it has none yet (a finished one is
  // then counted in the background): a new message is read back as it is written.
  const noteCount = (row: MessageRow) => {
    if (!counts || !row.content) return;
    if (row.tokens !== null) counts.known(row.content, row.tokens);
    else if (row.status !== 'streaming') counts.uncounted(row.id, row.content);
  };
  // Only user messages carry files; other rows skip the lookup.
  const read = (row: MessageRow): Message => {
    noteCount(row);
    const message = toMessage(row);
    if (!files || row.role !== 'user') return message;
    const attached = files.of(row.id);
    return attached.length ? { ...message, attachments: attached } : message;
  };
  /** Many rows (a page, a history): their files in one query, not one per user message. */
  const readMany = (rows: MessageRow[], attached = files && rowsWithFiles(rows)): Message[] =>
    rows.map((row) => {
      noteCount(row);
      const message = toMessage(row);
      const mine = attached?.get(row.id);
      return mine?.length ? { ...message, attachments: mine } : message;
    });
  const rowsWithFiles = (rows: MessageRow[]) => {
    const users = rows.filter((row) => row.role === 'user').map((row) => row.id);
    return users.length ? files!.ofMessages(users) : undefined;
  };
  // A page that opens mid-stream, or missed a delta, must read the text on its way, not the last save.
  const live = new Map<number, LiveReply>();
  const history = createHistoryCache();
  // Only the shown branch is cached: a write off it (or inside a transaction) drops the entry.
  const remember = (message: Message, shown = true): Message => {
    if (db.inTransaction || !shown) history.drop(message.conversationId);
    else history.write(message);
    return message;
  };
  // One prepared UPDATE per combination of changed columns, not one per call.
  const updates = new Map<string, ReturnType<Db['prepare']>>();
  const overlay = (message: Message): Message => {
    const current = live.get(message.id);
    return current ? { ...message, ...current() } : message;
  };
  const insert = db.prepare(
    `INSERT INTO messages (conversation_id, role, content, created_at, tool_calls, tool_call_id, tool_name, status, error, origin,
       reasoning, reasoning_ms, summary_through, parent_id, chosen, shown, outcome, kind, payload)
     VALUES (@conversation_id, @role, @content, @created_at, @tool_calls, @tool_call_id, @tool_name, @status, @error, @origin,
       @reasoning, @reasoning_ms, @summary_through, @parent_id, @chosen, @shown, @outcome, @kind, @payload)`,
  );
  // The shown branch is every row with shown = 1 (a partial index): the queries below
  // spell the literal so SQLite can use it.
  const shownLeaf = db.prepare<[string], { id: number }>(
    'SELECT id FROM messages WHERE conversation_id = ? AND shown = 1 ORDER BY id DESC LIMIT 1',
  );
  // A new message after the leaf becomes the chosen version among the leaf's children.
  const unchoose = db.prepare<[number | null, string]>(
    'UPDATE messages SET chosen = 0 WHERE parent_id IS ? AND conversation_id = ? AND chosen = 1',
  );
  const siblings = db
    .prepare<[number | null, string], number>(
      'SELECT id FROM messages WHERE parent_id IS ? AND conversation_id = ? ORDER BY id',
    )
    .pluck();
  // Which of a page's parents have more than one child: one statement for the page.
  const branching = db
    .prepare<[string, string], number>(
      `SELECT parent_id FROM messages WHERE conversation_id = ? AND parent_id IN (SELECT value FROM json_each(?))
     GROUP BY parent_id HAVING COUNT(*) > 1`,
    )
    .pluck();
  const subtree = db.prepare<[number]>(
    `WITH RECURSIVE below(id) AS (SELECT ? UNION ALL SELECT m.id FROM messages m JOIN below b ON m.parent_id = b.id)
     DELETE FROM messages WHERE id IN below`,
  );
  const byId = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const page = db.prepare<[string, number, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND shown = 1 ORDER BY id LIMIT ? OFFSET ?',
  );
  // Keyset pages: newest first from the index, no OFFSET scan and no COUNT(*).
  const newest = db.prepare<[string, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND shown = 1 ORDER BY id DESC LIMIT ?',
  );
  const newestBefore = db.prepare<[string, number, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND shown = 1 AND id < ? ORDER BY id DESC LIMIT ?',
  );
  const all = db.prepare<[string], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND shown = 1 ORDER BY id',
  );
  const after = db.prepare<[string, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND shown = 1 AND id > ? ORDER BY id',
  );
  const latestSummary = db.prepare<[string], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND shown = 1 AND summary_through IS NOT NULL ORDER BY id DESC LIMIT 1',
  );
  const usageTotal = db.prepare<[string], { p: number | null; c: number | null; cost: number | null }>(
    'SELECT SUM(prompt_tokens) AS p, SUM(completion_tokens) AS c, SUM(cost) AS cost FROM messages WHERE conversation_id = ?',
  );
  const count = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND shown = 1',
  );
  const streaming = db.prepare<[], MessageRow>("SELECT * FROM messages WHERE status = 'streaming'");
  const markInterrupted = db.prepare("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'");
  /** "2 of 3" when the message has other versions (siblings in the tree). */
  const versioned = (message: Message, row: MessageRow): Message => {
    const ids = siblings.all(row.parent_id ?? null, row.conversation_id);
    return ids.length > 1 ? { ...message, version: { index: ids.indexOf(row.id) + 1, count: ids.length } } : message;
  };
  const versionedPage = (rows: MessageRow[]): Message[] => {
    if (!rows.length) return [];
    const parents = [...new Set(rows.flatMap((row) => (row.parent_id == null ? [] : [row.parent_id])))];
    const split = new Set(branching.all(rows[0].conversation_id, JSON.stringify(parents)));
    const messages = readMany(rows);
    return rows.map((row, i) =>
      row.parent_id == null || split.has(row.parent_id) ? versioned(messages[i], row) : messages[i],
    );
  };

  /** Places and inserts one message (without its files); its id and whether it is shown. */
  function write(message: NewMessage): { id: number; shown: boolean } {
    const plumbing = message.plumbing ?? null;
    let place = message.place;
    if (!place) {
      const parentId = shownLeaf.get(message.conversationId)?.id ?? null;
      unchoose.run(parentId, message.conversationId);
      place = { parentId, chosen: true, shown: true };
    }
    const info = insert.run({
      conversation_id: message.conversationId,
      role: message.role,
      content: plumbing && !plumbingStoresText(plumbing) ? '' : message.content,
      created_at: message.createdAt ?? now(),
      tool_calls: message.toolCalls ? JSON.stringify(message.toolCalls) : null,
      tool_call_id: message.toolCallId ?? null,
      tool_name: message.toolName ?? null,
      status: message.status ?? 'complete',
      error: message.error ?? null,
      origin: message.origin ?? (message.role === 'user' ? 'user' : 'system'),
      reasoning: message.reasoning?.text ?? null,
      reasoning_ms: message.reasoning?.durationMs ?? null,
      summary_through: message.summaryThrough ?? null,
      parent_id: place.parentId,
      chosen: place.chosen ? 1 : 0,
      shown: place.shown ? 1 : 0,
      outcome: message.outcome ?? null,
      kind: plumbing?.kind ?? plainKind(message.role, message.summaryThrough),
      payload: plumbing ? JSON.stringify(plumbing) : null,
    });
    return { id: Number(info.lastInsertRowid), shown: place.shown };
  }

  return {
    insert(message: NewMessage): Message {
      if (message.attachments?.length) {
        const ids = message.attachments;
        if (!files) throw new Error('This message store cannot keep attachments.');
        return db.transaction(() => {
          const stored = this.insert({ ...message, attachments: undefined });
          files.link(stored.id, ids);
          return remember(this.get(stored.id)!);
        })();
      }
      const { id, shown } = write(message);
      return remember(this.get(id)!, shown);
    },
    /**
     * Writes the message and returns its id without reading it back (bulk imports): the
     * read counts the message's versions, so writing 10,000 versions of one message read
     * 50 million rows.
     */
    insertId(message: NewMessage): number {
      if (message.attachments?.length) return this.insert(message).id;
      const { id } = write(message);
      history.drop(message.conversationId);
      return id;
    },
    get(id: number): Message | undefined {
      const row = byId.get(id);
      return row ? versioned(read(row), row) : undefined;
    },
    /** The message with a streaming reply's live text. */
    getLive(id: number): Message | undefined {
      const message = this.get(id);
      return message && overlay(message);
    },
    /** Registers a streaming reply's in-memory state until the returned function is called. */
    trackLive(id: number, reply: LiveReply): () => void {
      live.set(id, reply);
      return () => live.delete(id);
    },
    update(id: number, patch: MessagePatch): Message | undefined {
      const { sql, values } = patchUpdate(id, patch);
      if (sql) {
        let statement = updates.get(sql);
        if (!statement) updates.set(sql, (statement = db.prepare(sql)));
        statement.run(values);
      }
      const row = byId.get(id);
      return row && remember(versioned(read(row), row), row.shown !== 0);
    },
    list(conversationId: string, offset: number, limit: number): { items: Message[]; total: number } {
      return { items: readMany(page.all(conversationId, limit, offset)), total: count.get(conversationId)!.n };
    },
    /** The newest `limit` messages before `before` (all when omitted), oldest first. */
    pageBefore(
      conversationId: string,
      before: number | undefined,
      limit: number,
    ): { items: Message[]; hasMore: boolean } {
      const rows =
        before === undefined
          ? newest.all(conversationId, limit + 1)
          : newestBefore.all(conversationId, before, limit + 1);
      const hasMore = rows.length > limit;
      return { items: versionedPage(rows.slice(0, limit).reverse()).map(overlay), hasMore };
    },
    /** Every message of the shown branch, oldest first (from memory for recent conversations). */
    all(conversationId: string): Message[] {
      return history.read(conversationId, () => {
        // One query for the files of a whole history, by conversation rather than by id.
        return readMany(all.all(conversationId), files?.ofConversation(conversationId));
      });
    },
    /** Messages after `afterId` (the history a summary does not cover). */
    after(conversationId: string, afterId: number): Message[] {
      return readMany(after.all(conversationId, afterId));
    },
    /** The newest summary note of the conversation, if any. */
    latestSummary(conversationId: string): Message | undefined {
      const row = latestSummary.get(conversationId);
      return row ? read(row) : undefined;
    },
    /** Tokens and cost the server reported over the whole conversation. */
    usageTotal(conversationId: string): { promptTokens: number; completionTokens: number; cost: number | null } {
      const row = usageTotal.get(conversationId)!;
      return { promptTokens: row.p ?? 0, completionTokens: row.c ?? 0, cost: row.cost };
    },
    /** Rows left `streaming` by a process that died: they were cut short. */
    recoverInterrupted(): Message[] {
      const rows = streaming.all();
      markInterrupted.run();
      history.clear();
      return rows.map((r) => toMessage({ ...r, status: 'interrupted' }));
    },
    /** Removes a message and everything after it, every version of what followed included (retry). */
    truncateFrom(conversationId: string, id: number): number {
      history.drop(conversationId);
      return subtree.run(id).changes;
    },
    /** The last message of the shown branch. */
    shownLeaf(conversationId: string): number | null {
      return shownLeaf.get(conversationId)?.id ?? null;
    },
    /** The versions of a message (itself and its siblings), oldest first. */
    versionsOf(message: Pick<MessageRow, 'parent_id' | 'conversation_id'>): number[] {
      return siblings.all(message.parent_id ?? null, message.conversation_id);
    },
    /** The shown branch changed (versions): the cached history no longer holds. */
    forget(conversationId: string): void {
      history.drop(conversationId);
    },
  };
}

export type MessageRepo = ReturnType<typeof createMessageRepo>;
