// Messages in SQLite. Streaming replies are rows whose content is rewritten as text
// arrives, so a crash loses at most the text since the last save.
import type { Message, MessageRole, MessageStatus, Reasoning, ToolCall } from '../../../shared/domain';
import type { AttachmentInfo } from '../../../shared/attachments';
import type { Db } from '../db/openDatabase';
import { createHistoryCache } from './historyCache';

/** A `messages` row as SQLite returns it. */
export interface MessageRow {
  id: number;
  conversation_id: string;
  role: MessageRole;
  content: string;
  created_at: number;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  status: MessageStatus;
  error: string | null;
  origin: Message['origin'];
  reasoning?: string | null;
  reasoning_ms?: number | null;
  model?: string | null;
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  cost?: number | null;
  summary_through?: number | null;
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    role: row.role,
    content: row.content,
    createdAt: row.created_at,
    toolCalls: row.tool_calls ? (JSON.parse(row.tool_calls) as ToolCall[]) : null,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    status: row.status,
    error: row.error,
    origin: row.origin,
    reasoning: row.reasoning ? { text: row.reasoning, durationMs: row.reasoning_ms ?? null } : null,
    usage:
      row.prompt_tokens != null && row.completion_tokens != null
        ? { promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens, cost: row.cost ?? null }
        : null,
    model: row.model ?? null,
    summaryThrough: row.summary_through ?? null,
  };
}

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
  /** Ids of stored attachments (attachments/), in order. */
  attachments?: string[];
}

/** The files of user messages (attachments/): read with each message, linked on insert. */
export interface MessageAttachments {
  of(messageId: number): AttachmentInfo[];
  /** Throws (so the insert rolls back) when an id is unknown or the files exceed the limits. */
  link(messageId: number, ids: string[]): void;
}

export interface MessagePatch {
  content?: string;
  status?: MessageStatus;
  toolCalls?: ToolCall[] | null;
  error?: string | null;
  reasoning?: Reasoning | null;
  usage?: Message['usage'];
  model?: string | null;
}

/** What a streaming reply holds in memory between its once-a-second saves. */
export type LiveReply = () => Pick<Message, 'content' | 'toolCalls' | 'reasoning'>;

export function createMessageRepo(db: Db, now: () => number = Date.now, files?: MessageAttachments) {
  // Only user messages carry files; other rows skip the lookup.
  const read = (row: MessageRow): Message => {
    const message = toMessage(row);
    if (!files || row.role !== 'user') return message;
    const attached = files.of(row.id);
    return attached.length ? { ...message, attachments: attached } : message;
  };
  // A page that opens mid-stream, or missed a delta, must read the text on its way, not the last save.
  const live = new Map<number, LiveReply>();
  const history = createHistoryCache();
  const remember = (message: Message): Message => {
    if (db.inTransaction) history.drop(message.conversationId);
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
       reasoning, reasoning_ms, summary_through)
     VALUES (@conversation_id, @role, @content, @created_at, @tool_calls, @tool_call_id, @tool_name, @status, @error, @origin,
       @reasoning, @reasoning_ms, @summary_through)`,
  );
  const byId = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const page = db.prepare<[string, number, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? ORDER BY id LIMIT ? OFFSET ?',
  );
  // Keyset pages: newest first from the index, no OFFSET scan and no COUNT(*).
  const newest = db.prepare<[string, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT ?',
  );
  const newestBefore = db.prepare<[string, number, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
  );
  const all = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id');
  const after = db.prepare<[string, number], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id',
  );
  const latestSummary = db.prepare<[string], MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = ? AND summary_through IS NOT NULL ORDER BY id DESC LIMIT 1',
  );
  const usageTotal = db.prepare<[string], { p: number | null; c: number | null; cost: number | null }>(
    'SELECT SUM(prompt_tokens) AS p, SUM(completion_tokens) AS c, SUM(cost) AS cost FROM messages WHERE conversation_id = ?',
  );
  const count = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?');
  const streaming = db.prepare<[], MessageRow>("SELECT * FROM messages WHERE status = 'streaming'");
  const markInterrupted = db.prepare("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'");
  const removeFrom = db.prepare('DELETE FROM messages WHERE conversation_id = ? AND id >= ?');

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
      const info = insert.run({
        conversation_id: message.conversationId,
        role: message.role,
        content: message.content,
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
      });
      return remember(this.get(Number(info.lastInsertRowid))!);
    },
    get(id: number): Message | undefined {
      const row = byId.get(id);
      return row ? read(row) : undefined;
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
      const sets: string[] = [];
      const values: Record<string, unknown> = { id };
      const columns: Array<[keyof MessagePatch, string, unknown]> = [
        ['content', 'content', patch.content],
        ['status', 'status', patch.status],
        ['error', 'error', patch.error],
        ['toolCalls', 'tool_calls', patch.toolCalls === undefined ? undefined : patch.toolCalls && JSON.stringify(patch.toolCalls)],
        ['reasoning', 'reasoning', patch.reasoning === undefined ? undefined : (patch.reasoning?.text ?? null)],
        ['reasoning', 'reasoning_ms', patch.reasoning === undefined ? undefined : (patch.reasoning?.durationMs ?? null)],
        ['model', 'model', patch.model],
        ['usage', 'prompt_tokens', patch.usage === undefined ? undefined : (patch.usage?.promptTokens ?? null)],
      ];
      if (patch.usage !== undefined) {
        sets.push('completion_tokens = @completion_tokens', 'cost = @cost');
        values.completion_tokens = patch.usage?.completionTokens ?? null;
        values.cost = patch.usage?.cost ?? null;
      }
      for (const [key, column, value] of columns) {
        if (patch[key] === undefined) continue;
        sets.push(`${column} = @${column}`);
        values[column] = value;
      }
      if (sets.length) {
        const sql = `UPDATE messages SET ${sets.join(', ')} WHERE id = @id`;
        let statement = updates.get(sql);
        if (!statement) updates.set(sql, (statement = db.prepare(sql)));
        statement.run(values);
      }
      const updated = this.get(id);
      return updated && remember(updated);
    },
    list(conversationId: string, offset: number, limit: number): { items: Message[]; total: number } {
      return { items: page.all(conversationId, limit, offset).map(read), total: count.get(conversationId)!.n };
    },
    /** The newest `limit` messages before `before` (all when omitted), oldest first. */
    pageBefore(conversationId: string, before: number | undefined, limit: number): { items: Message[]; hasMore: boolean } {
      const rows =
        before === undefined ? newest.all(conversationId, limit + 1) : newestBefore.all(conversationId, before, limit + 1);
      const hasMore = rows.length > limit;
      return { items: rows.slice(0, limit).reverse().map((row) => overlay(read(row))), hasMore };
    },
    /** Every message of the conversation, oldest first (from memory for recent conversations). */
    all(conversationId: string): Message[] {
      return history.read(conversationId, () => all.all(conversationId).map(read));
    },
    /** Messages after `afterId` (the history a summary does not cover). */
    after(conversationId: string, afterId: number): Message[] {
      return after.all(conversationId, afterId).map(read);
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
    /** Removes a message and everything after it (edit-and-resend, regenerate). */
    truncateFrom(conversationId: string, id: number): number {
      history.drop(conversationId);
      return removeFrom.run(conversationId, id).changes;
    },
  };
}

export type MessageRepo = ReturnType<typeof createMessageRepo>;
