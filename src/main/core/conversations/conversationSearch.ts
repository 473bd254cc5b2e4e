// The sidebar's search: titles and message text through FTS5 (the shown versions only, so
// a result always opens on a message that is there to see). Results come pinned first,
// then by their newest match. A common word matches most of the database, so the scan of
// matching messages (newest first) stops once the requested page is full, or after
// ROW_BUDGET rows of it; the count is then estimated, never counted.
import type { Db } from '../db/openDatabase';
import { fold, snippetOf, WORD } from './searchSnippet';

export const SEARCH_CAP = 1000;

export { MATCH_END, MATCH_START, snippetOf } from './searchSnippet';

/**
 * The search box text as an FTS5 query: every word must occur, the last one as a prefix
 * (search as you type). Words are quoted, so FTS syntax in the input is just text.
 */
export function ftsQuery(query: string): string {
  const words = query.match(WORD) ?? [];
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** Escapes LIKE wildcards so a search for `50%` finds that text literally. */
export function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The search text as one trigram phrase: a substring of the title, punctuation and all.
 * FTS5 reads a NUL as the end of the query ("unterminated string"), so one becomes U+FFFD:
 * the phrase stays quoted whatever it is given.
 */
export function titlePhrase(query: string): string {
  return `"${query.replaceAll('"', '""').replaceAll('\0', '\uFFFD')}"`;
}

/** Trigram search needs three characters; shorter queries scan the titles. */
const TRIGRAM = 3;
/**
 * Matching messages read per page of results at most: one conversation of 100,000
 * messages matching a common word would otherwise be read whole to find one result.
 */
const ROW_BUDGET = 10;
const MIN_ROWS = 2000;

export interface SearchPage {
  /** The requested page of matching top-level conversations. */
  ids: string[];
  /** How many match, up to SEARCH_CAP; estimated when `capped`. */
  total: number;
  /** The scan stopped before the end: more may match than `total` says. */
  capped: boolean;
  /** The newest matching message of each conversation on the page found through its messages. */
  messageOf: Map<string, number>;
}

interface Hit {
  id: string;
  pinned: number;
  /** The newest match: its message's time, or the conversation's activity for a title match. */
  at: number;
  messageId?: number;
}

/**
 * When the scan stopped early, pinned conversations it did not reach are found by the same
 * index query, on from where it stopped, filtered by the small pinned set: the shown message
 * ids of the pinned conversations not found yet (`@found` lists those that were), read
 * from `messages_shown` and materialized first, so a row of the index that is not theirs
 * is dropped inside SQLite (a Bloom filter and a probe) without reading its message. The
 * caller stops at a page of them, or once none is missing. CROSS JOIN keeps the index
 * first; the `+` keeps the filter out of FTS5, which would run the query once per id.
 * Exported for its query-plan test.
 */
export const PINNED_MATCHES_SQL = `WITH pinned (id) AS MATERIALIZED (
       SELECT m.id FROM conversations c CROSS JOIN messages m
       WHERE c.pinned = 1 AND c.parent_id IS NULL AND c.id NOT IN (SELECT value FROM json_each(@found))
         AND m.conversation_id = c.id AND m.shown = 1 AND m.id < @before)
     SELECT m.id, m.conversation_id, m.created_at
     FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid
     WHERE messages_fts MATCH @match AND messages_fts.rowid < @before AND +messages_fts.rowid IN pinned
     ORDER BY messages_fts.rowid DESC`;

export function createConversationSearch(db: Db) {
  const titles = db.prepare<[string, number], { id: string }>(
    'SELECT id FROM conversations_fts WHERE conversations_fts MATCH ? ORDER BY rowid DESC LIMIT ?',
  );
  const shortTitles = db.prepare<[string, number], { id: string }>(
    "SELECT id FROM conversations WHERE parent_id IS NULL AND title LIKE ? ESCAPE '\\' ORDER BY rowid DESC LIMIT ?",
  );
  const newestMessage = db.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM messages');
  const newestFirst = db.prepare<[string], { id: number; conversation_id: string; created_at: number }>(
    `SELECT m.id, m.conversation_id, m.created_at FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
     WHERE messages_fts MATCH ? AND m.shown = 1 ORDER BY messages_fts.rowid DESC`,
  );
  const conversation = db.prepare<[string], { pinned: number; updated_at: number; parent_id: string | null }>(
    'SELECT pinned, updated_at, parent_id FROM conversations WHERE id = ?',
  );
  const contents = db.prepare<[string], { id: number; content: string }>(
    'SELECT id, content FROM messages WHERE id IN (SELECT value FROM json_each(?))',
  );
  const pinnedTitles = db.prepare<[], { id: string; title: string; updated_at: number }>(
    'SELECT id, title, updated_at FROM conversations WHERE pinned = 1 AND parent_id IS NULL',
  );
  const pinnedCount = db
    .prepare<[], number>('SELECT count(*) FROM conversations WHERE pinned = 1 AND parent_id IS NULL')
    .pluck();
  const pinnedMatches = db.prepare<
    [{ found: string; before: number; match: string }],
    { id: number; conversation_id: string; created_at: number }
  >(PINNED_MATCHES_SQL);

  return {
    /** `query` is the trimmed search text; `fts` its word query for message text (may be empty). */
    find(query: string, fts: string, offset: number, limit: number): SearchPage {
      // Text with a NUL cannot be typed or stored as a title; such a search finds nothing.
      if (query.includes('\0')) return { ids: [], total: 0, capped: false, messageOf: new Map() };
      const hits = new Map<string, Hit>();
      const seen = new Set<string>();
      let capped = false;
      const consider = (id: string): Hit | null => {
        if (seen.has(id)) return hits.get(id) ?? null;
        seen.add(id);
        const row = conversation.get(id);
        if (!row || row.parent_id !== null) return null; // worker transcripts are not listed
        const hit: Hit = { id, pinned: row.pinned, at: row.updated_at };
        hits.set(id, hit);
        return hit;
      };
      const titleRows =
        [...query].length >= TRIGRAM
          ? titles.all(titlePhrase(query), SEARCH_CAP + 1)
          : shortTitles.all(likePattern(query), SEARCH_CAP + 1);
      for (const row of titleRows) consider(row.id);
      if (titleRows.length > SEARCH_CAP) capped = true;
      // The scan runs newest first, so once `wanted` conversations matched at or after the
      // current row's time, nothing older can enter the page: stop there.
      const wanted = offset + limit;
      const titleTimes = [...hits.values()].map((hit) => hit.at).sort((a, b) => b - a);
      let titlesAfter = 0;
      let fromMessages = 0;
      let rows = 0;
      let lastId = 0;
      const budget = Math.max(MIN_ROWS, ROW_BUDGET * wanted);
      for (const row of fts ? newestFirst.iterate(fts) : []) {
        rows++;
        lastId = row.id;
        const known = hits.has(row.conversation_id);
        const hit = consider(row.conversation_id);
        if (hit && hit.messageId === undefined) {
          hit.messageId = row.id;
          hit.at = row.created_at;
          if (!known) fromMessages++;
        }
        // Rows come newest first: the count of title matches at or after the row only grows.
        while (titlesAfter < titleTimes.length && titleTimes[titlesAfter] >= row.created_at) titlesAfter++;
        const full = fromMessages + titlesAfter >= wanted;
        if (hits.size > SEARCH_CAP || full || rows >= budget) {
          capped = true;
          break;
        }
      }
      // Stopped early: estimate how many conversations match from the share of the
      // messages scanned (ids grow with time), between what was found and the cap.
      let estimate = hits.size;
      if (capped && lastId > 0) {
        const newest = newestMessage.get()?.id ?? lastId;
        const share = Math.max(1e-6, (newest - lastId + 1) / newest);
        estimate = Math.min(SEARCH_CAP, Math.max(hits.size, Math.round(fromMessages / share)));
      }
      // The scan stopped early: pinned conversations stay on top even when their match is
      // old. They rank before the rest, newest match first, so once `wanted` of them matched
      // at or after the current row's time, no older one can enter the page.
      const pinnedHits = [...hits.values()].filter((hit) => hit.pinned);
      let missing = capped && fts && lastId > 0 ? pinnedCount.get()! - pinnedHits.length : 0;
      if (missing > 0) {
        const pinnedTimes = pinnedHits.map((hit) => hit.at).sort((a, b) => b - a);
        let pinnedAfter = 0;
        let pinnedFound = 0;
        const found = JSON.stringify(pinnedHits.map((hit) => hit.id));
        for (const row of pinnedMatches.iterate({ found, before: lastId, match: fts })) {
          while (pinnedAfter < pinnedTimes.length && pinnedTimes[pinnedAfter] >= row.created_at) pinnedAfter++;
          if (pinnedFound + pinnedAfter >= wanted) break;
          // Newest first: a conversation's first row is its newest match.
          if (hits.has(row.conversation_id)) continue;
          hits.set(row.conversation_id, { id: row.conversation_id, pinned: 1, at: row.created_at, messageId: row.id });
          pinnedFound++;
          if (--missing === 0) break;
        }
      }
      // More titles matched than were read: a pinned one may be among those left out.
      for (const row of titleRows.length > SEARCH_CAP ? pinnedTitles.all() : []) {
        if (!hits.has(row.id) && fold(row.title).includes(fold(query)))
          hits.set(row.id, { id: row.id, pinned: 1, at: row.updated_at });
      }
      const ranked = [...hits.values()].sort((a, b) => b.pinned - a.pinned || b.at - a.at || (a.id < b.id ? -1 : 1));
      const page = ranked.slice(offset, offset + limit);
      const messageOf = new Map(
        page.flatMap((hit) => (hit.messageId === undefined ? [] : [[hit.id, hit.messageId] as const])),
      );
      const total = Math.min(SEARCH_CAP, Math.max(ranked.length, estimate));
      return { ids: page.map((hit) => hit.id), total, capped: capped || ranked.length > SEARCH_CAP, messageOf };
    },
    /** Short excerpts of the messages around their match, the matched words between markers. */
    snippets(query: string, messageIds: number[]): Map<number, string> {
      const out = new Map<number, string>();
      for (const row of messageIds.length ? contents.all(JSON.stringify(messageIds)) : []) {
        const snippet = snippetOf(row.content, query);
        if (snippet !== null) out.set(row.id, snippet);
      }
      return out;
    },
  };
}
