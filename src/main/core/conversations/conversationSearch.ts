// The sidebar's search: titles and message text through FTS5, newest matches first.
// A common word matches most of the database, so the scan stops at SEARCH_CAP
// conversations and the count reads "1,000+" rather than counting every match.
import type { Db } from '../db/openDatabase';

export const SEARCH_CAP = 1000;

// Snippet markers: control characters no message contains, turned into highlights by the UI.
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/**
 * The search box text as an FTS5 query: every word must occur, the last one as a prefix
 * (search as you type). Words are quoted, so FTS syntax in the input is just text.
 */
export function ftsQuery(query: string): string {
  const words = query.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** Escapes LIKE wildcards so a search for `50%` finds that text literally. */
export function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The search text as one trigram phrase: a substring of the title, punctuation and all. */
export function titlePhrase(query: string): string {
  return `"${query.replaceAll('"', '""')}"`;
}

/** Trigram search needs three characters; shorter queries scan the titles. */
const TRIGRAM = 3;

export interface SearchHits {
  /** Matching top-level conversation ids in sidebar order, at most SEARCH_CAP. */
  ids: string[];
  /** More conversations match than SEARCH_CAP. */
  capped: boolean;
  /** The newest matching message of each conversation found through its messages. */
  messageOf: Map<string, number>;
}

export function createConversationSearch(db: Db) {
  const titles = db.prepare<[string, number], { id: string }>(
    'SELECT id FROM conversations_fts WHERE conversations_fts MATCH ? ORDER BY rowid DESC LIMIT ?',
  );
  const shortTitles = db.prepare<[string, number], { id: string }>(
    "SELECT id FROM conversations WHERE parent_id IS NULL AND title LIKE ? ESCAPE '\\' ORDER BY rowid DESC LIMIT ?",
  );
  const messages = db.prepare<[string], { id: number; conversation_id: string }>(
    `SELECT m.id, m.conversation_id FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
     WHERE messages_fts MATCH ? ORDER BY messages_fts.rowid DESC`,
  );
  // Pinned conversations stay on top of results even when their match is old.
  const pinned = db.prepare<[], { id: string }>('SELECT id FROM conversations WHERE pinned = 1 AND parent_id IS NULL');
  const newestMatchIn = db.prepare<[string, string], { id: number }>(
    `SELECT m.id FROM messages m WHERE m.conversation_id = ? AND m.role IN ('user', 'assistant')
       AND EXISTS (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? AND rowid = m.id)
     ORDER BY m.id DESC LIMIT 1`,
  );
  const ordered = db.prepare<[string], { id: string }>(
    `SELECT id FROM conversations WHERE parent_id IS NULL AND id IN (SELECT value FROM json_each(?))
     ORDER BY pinned DESC, updated_at DESC, id`,
  );
  const snippet = db.prepare<[string, number], { text: string }>(
    `SELECT snippet(messages_fts, 0, '${MATCH_START}', '${MATCH_END}', '…', 12) AS text
     FROM messages_fts WHERE messages_fts MATCH ? AND rowid = ?`,
  );

  return {
    /** `query` is the trimmed search text; `fts` its word query for message text (may be empty). */
    find(query: string, fts: string): SearchHits {
      const found = new Set<string>();
      const messageOf = new Map<string, number>();
      let capped = false;
      const titleRows = [...query].length >= TRIGRAM ? titles.all(titlePhrase(query), SEARCH_CAP + 1) : shortTitles.all(likePattern(query), SEARCH_CAP + 1);
      for (const row of titleRows) found.add(row.id);
      if (found.size > SEARCH_CAP) capped = true;
      for (const row of fts ? messages.iterate(fts) : []) {
        if (!messageOf.has(row.conversation_id)) messageOf.set(row.conversation_id, row.id);
        found.add(row.conversation_id);
        // Worker transcripts are counted here and dropped below: a little slack.
        if (found.size > SEARCH_CAP * 2) {
          capped = true;
          break;
        }
      }
      // The message scan stopped early: a pinned conversation's older match may be missing.
      for (const { id } of capped && fts ? pinned.all() : []) {
        if (found.has(id)) continue;
        const hit = newestMatchIn.get(id, fts);
        if (hit) {
          messageOf.set(id, hit.id);
          found.add(id);
        }
      }
      let ids = ordered.all(JSON.stringify([...found])).map((r) => r.id);
      if (ids.length > SEARCH_CAP) {
        ids = ids.slice(0, SEARCH_CAP);
        capped = true;
      }
      return { ids, capped, messageOf };
    },
    /** A short excerpt of the message around the match, the matched words between markers. */
    snippet(fts: string, messageId: number): string | null {
      return snippet.get(fts, messageId)?.text ?? null;
    },
  };
}
