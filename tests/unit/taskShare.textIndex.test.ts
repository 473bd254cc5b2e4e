// The list_task_lists text filter looks its long words up in the trigram index
// (task_lists_fts, migration 31) and still answers exactly as the substring check did: a list
// matches when its folded conversation title and task titles hold every word. Checked on a
// real SQLite file against the titles themselves, after renames, task edits and closes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { foldForSearch } from '../../src/main/core/db/foldedText';
import { createShareReader, FEW_CANDIDATES } from '../../src/main/core/taskShare/shareReader';
import { filterWords } from '../../src/main/core/taskShare/filterWords';
import { seedShareLists } from '../support/shareLists';
import { tempDirPerTest } from '../support/tempDir';

const dir = tempDirPerTest({ beforeEach, afterEach });

let db: Db;
beforeEach(() => {
  db = openDatabase(dir.path).db;
});
afterEach(() => db.close());

let clock = 1_700_000_000_000;

function addList(title: string, taskTitles: string[]): { conversationId: string; listId: number } {
  const conversationId = `c${clock}`;
  clock += 1000;
  db.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
    conversationId,
    title,
    clock,
    clock,
  );
  const listId = Number(
    db.prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, ?)').run(conversationId, clock)
      .lastInsertRowid,
  );
  taskTitles.forEach((taskTitle, i) => addTask(listId, i + 1, taskTitle));
  return { conversationId, listId };
}

function addTask(listId: number, seq: number, title: string): void {
  db.prepare(
    `INSERT INTO tasks (list_id, seq, title, status, owner, position, created_at, updated_at)
     VALUES (?, ?, ?, 'pending', 'main', ?, ?, ?)`,
  ).run(listId, seq, title, seq, clock, clock);
}

/** What the filter must answer, from the titles themselves: open top-level lists holding every word. */
function expected(text: string): string[] {
  const words = filterWords(text);
  const lists = db
    .prepare(
      `SELECT l.id, c.id AS conversation_id, c.title FROM task_lists l JOIN conversations c ON c.id = l.conversation_id
       WHERE l.closed_at IS NULL AND c.parent_id IS NULL AND EXISTS (SELECT 1 FROM tasks t WHERE t.list_id = l.id)
       ORDER BY c.updated_at DESC, c.id DESC`,
    )
    .all() as Array<{ id: number; conversation_id: string; title: string }>;
  const taskTitles = db.prepare('SELECT title FROM tasks WHERE list_id = ?').pluck();
  return lists
    .filter((list) => {
      const folded = [list.title, ...(taskTitles.all(list.id) as string[])].map(foldForSearch).join('\n');
      return words.every((word) => folded.includes(word));
    })
    .map((list) => list.conversation_id);
}

function found(text: string): string[] {
  return createShareReader(db)
    .summaries({ text, includeCompleted: true, limit: 500 })
    .map((s) => s.conversationId);
}

function plan(text: string): string[] {
  const { sql, params } = createShareReader(db).summaryQuery({ text });
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
}

const TEXTS = [
  'release',
  'RELEASE notes',
  'ea',
  'e',
  'notes ea',
  'äpfel',
  'ÄPFEL kaufen',
  'straße',
  '東京',
  '東京タワー',
  '🚀la',
  'i̇stanbul',
  'σοφία',
  '"quoted"',
  'AND',
  'near( x*',
  '-minus',
  'nothing-matches-this',
  'release nothing-matches-this',
];

describe('the list_task_lists text index', () => {
  it('answers every filter exactly as the substring check, before and after edits', () => {
    const a = addList('Release notes', ['Write the changelog', 'Tag v2']);
    const b = addList('Äpfel kaufen', ['Straße überqueren', 'Ask "quoted" people']);
    const c = addList('東京タワー visit', ['🚀launch prep', 'AND near( x* -minus']);
    const d = addList('İstanbul trip', ['Σοφία meets', 'notes ea']);
    const empty = addList('No tasks here: release', []);
    for (const text of TEXTS) expect(found(text), text).toEqual(expected(text));

    // Renames, task edits, moves and deletions: the index follows each.
    db.prepare('UPDATE conversations SET title = ? WHERE id = ?').run('Shipping plan', a.conversationId);
    db.prepare('UPDATE tasks SET title = ? WHERE list_id = ? AND seq = 1').run('Release the Äpfel', b.listId);
    db.prepare('DELETE FROM tasks WHERE list_id = ? AND seq = 1').run(c.listId);
    addTask(d.listId, 3, 'Nothing-matches-this after all');
    db.prepare('UPDATE tasks SET list_id = ?, seq = 9 WHERE list_id = ? AND seq = 2').run(a.listId, b.listId);
    for (const text of TEXTS) expect(found(text), `after edits: ${text}`).toEqual(expected(text));
    expect(found('release')).toEqual([b.conversationId]);
    expect(found('nothing-matches-this')).toEqual([d.conversationId]);

    // A closed list leaves the index and its successor joins it; a deleted conversation leaves it.
    db.prepare('UPDATE task_lists SET closed_at = ? WHERE id = ?').run(clock, b.listId);
    const b2 = db
      .prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, ?)')
      .run(b.conversationId, clock).lastInsertRowid;
    addTask(Number(b2), 1, 'Second release');
    db.prepare('DELETE FROM conversations WHERE id = ?').run(d.conversationId);
    for (const text of TEXTS) expect(found(text), `after closes: ${text}`).toEqual(expected(text));
    const indexed = db.prepare('SELECT rowid FROM task_lists_fts WHERE task_lists_fts MATCH ?').pluck();
    // Open lists only (the one without tasks too: the filter's own check leaves it out).
    expect(indexed.all('"release"')).toEqual([empty.listId, Number(b2)]);
    expect(indexed.all('"σοφία"')).toEqual([]);
  });

  it('looks a selective text up in the index instead of reading every list', () => {
    addList('Release notes', ['Write the changelog']);
    addList('Garden', ['Plant the tulips']);
    const lookedUp = plan('tulips plant absent-word');
    expect(lookedUp.some((step) => /task_lists_fts VIRTUAL TABLE INDEX/.test(step))).toBe(true);
    expect(lookedUp.some((step) => /SEARCH l USING INTEGER PRIMARY KEY/.test(step))).toBe(true);
    expect(lookedUp.filter((step) => /^SCAN (c|l)\b/.test(step))).toEqual([]);
    // Words under three characters cannot be looked up: the walk by activity with the check.
    expect(plan('ab cd').some((step) => step.startsWith('SCAN c USING INDEX conversations_by_activity'))).toBe(true);
  });

  it('walks by activity for a text most lists hold, with the same answers', () => {
    seedShareLists(db, FEW_CANDIDATES + 1, 1);
    expect(plan('project').some((step) => step.startsWith('SCAN c USING INDEX conversations_by_activity'))).toBe(true);
    expect(plan('project').some((step) => /task_lists_fts/.test(step))).toBe(false);
    for (const text of ['project', 'project 99', 'task 1 of project 100', 'project 99 absent']) {
      expect(found(text), text).toEqual(expected(text).slice(0, 500));
    }
  });
});
