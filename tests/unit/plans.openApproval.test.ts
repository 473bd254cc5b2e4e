// "Does the open list have an approved revision?", asked after every task tool call:
// whoever writes the approval — the plan store, an import's raw INSERT, another
// connection — the answer is what was committed. Real SQLite files, two connections.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { DB_FILE } from '../../src/main/core/db/databaseFile';
import { createPlanStore } from '../../src/main/core/plans/planStore';
import { tempDirPerTest } from '../support/tempDir';

const [A, B, C] = ['a', 'b', 'c'].map((c) => `${c.repeat(8)}-1111-4111-8111-111111111111`);
const dir = tempDirPerTest({ beforeEach, afterEach });

function withOpenList(db: Db, conversationId: string): number {
  db.prepare(
    "INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source) VALUES (?, 'Plan', 1, 1, 0, 'user')",
  ).run(conversationId);
  return Number(
    db.prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, 1)').run(conversationId)
      .lastInsertRowid,
  );
}

const insertApproval = (db: Db, conversationId: string, listId: number, approvedAt: number | null) =>
  db
    .prepare(
      "INSERT INTO plan_revisions (conversation_id, list_id, revision, tasks, comments, approved_at, created_at) VALUES (?, ?, 1, '[]', '{}', ?, 1)",
    )
    .run(conversationId, listId, approvedAt);

describe('the open list’s approval', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(dir.path).db;
  });
  afterEach(() => db.close());

  it('is none at first, and counts the moment the plan store writes an approved revision', () => {
    const list = withOpenList(db, A);
    const plans = createPlanStore(db);
    expect(plans.hasOpenApproval(A)).toBe(false);
    plans.addRevision(A, list, { tasks: [], comments: { general: '', tasks: [] }, approvedAt: null, createdAt: 1 });
    expect(plans.hasOpenApproval(A)).toBe(false);
    plans.addRevision(A, list, { tasks: [], comments: { general: '', tasks: [] }, approvedAt: 2, createdAt: 2 });
    expect(plans.hasOpenApproval(A)).toBe(true);
  });

  it('counts approvals written by raw SQL on the same connection (an import) and approvals set later by an UPDATE', () => {
    const [listA, listB] = [withOpenList(db, A), withOpenList(db, B)];
    const plans = createPlanStore(db);
    expect(plans.hasOpenApproval(B)).toBe(false);
    insertApproval(db, B, listB, 5);
    expect(plans.hasOpenApproval(B)).toBe(true);
    insertApproval(db, A, listA, null);
    expect(plans.hasOpenApproval(A)).toBe(false);
    db.prepare('UPDATE plan_revisions SET approved_at = 6 WHERE conversation_id = ?').run(A);
    expect(plans.hasOpenApproval(A)).toBe(true);
  });

  it('counts an approval another connection committed', () => {
    const list = withOpenList(db, C);
    const plans = createPlanStore(db);
    expect(plans.hasOpenApproval(C)).toBe(false);
    const other = new Database(path.join(dir.path, DB_FILE));
    try {
      insertApproval(other, C, list, 7);
    } finally {
      other.close();
    }
    expect(plans.hasOpenApproval(C)).toBe(true);
  });

  it('does not count an approval that was rolled back, or one of a closed list', () => {
    const list = withOpenList(db, A);
    const plans = createPlanStore(db);
    expect(() =>
      db.transaction(() => {
        insertApproval(db, A, list, 3);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(plans.hasOpenApproval(A)).toBe(false);
    insertApproval(db, A, list, 4);
    expect(plans.hasOpenApproval(A)).toBe(true);
    db.prepare('UPDATE task_lists SET closed_at = 9 WHERE id = ?').run(list);
    expect(plans.hasOpenApproval(A)).toBe(false);
  });
});
