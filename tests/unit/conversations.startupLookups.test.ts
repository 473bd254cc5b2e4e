// What start-up reads before the window opens does not grow with the data (migration 26):
// the regenerates cut off by a crash are found from the unchosen messages, and the lists
// cut off while they ran from the lists left running and the workers left live. Each query
// is checked twice: it finds what it should, and its plan walks no table or whole index.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { createVersionTree, ORPHANED_SQL } from '../../src/main/core/versions/versionTree';
import { createContinuityStore, CUT_OFF_SQL } from '../../src/main/core/continuity/continuityStore';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(dir).db;
});
afterEach(() => {
  db.close();
  removeDir(dir);
});

/** The plan's steps that read rows: SCAN (a walk) or SEARCH (a lookup), with their index. */
function readSteps(sql: string, ...params: unknown[]): string[] {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  return plan.map((row) => row.detail).filter((detail) => /^(SCAN|SEARCH) /.test(detail));
}

/** Walks are allowed only over the partial indexes, whose rows are the few the query wants. */
function walks(steps: string[], partial: string[]): string[] {
  return steps.filter((step) => step.startsWith('SCAN ') && !partial.some((index) => step.endsWith(`INDEX ${index}`)));
}

describe('regenerates cut off by a crash', () => {
  it('are shown again from their newest old reply, and nothing else changes', () => {
    const conversations = createConversationRepo(db);
    const messages = createMessageRepo(db);
    const tree = createVersionTree(db);
    const turn = (conversationId: string) => {
      const question = messages.insert({ conversationId, role: 'user', content: 'Why?' });
      const reply = messages.insert({ conversationId, role: 'assistant', content: 'Because.' });
      return { question, reply };
    };
    // Cut off: the old reply is off the branch and no new version was stored.
    const cut = conversations.create('Cut off').id;
    const cutTurn = turn(cut);
    tree.hideAfter(cut, cutTurn.question.id);
    tree.unchoose(cut, cutTurn.question.id);
    // Finished: the new version was stored beside the old one.
    const done = conversations.create('Regenerated').id;
    const doneTurn = turn(done);
    tree.hideAfter(done, doneTurn.question.id);
    tree.unchoose(done, doneTurn.question.id);
    const second = messages.insert({ conversationId: done, role: 'assistant', content: 'Because, again.' });
    // Plain: never regenerated.
    const plain = conversations.create('Plain').id;
    turn(plain);
    const flags = () => db.prepare('SELECT id, chosen, shown FROM messages ORDER BY id').all();
    const before = flags();

    expect(tree.restoreOrphans()).toEqual([{ conversationId: cut, versionId: cutTurn.reply.id }]);
    const after = flags() as { id: number; chosen: number; shown: number }[];
    expect(after.find((m) => m.id === cutTurn.reply.id)).toEqual({ id: cutTurn.reply.id, chosen: 1, shown: 1 });
    expect(after.filter((m) => m.id !== cutTurn.reply.id)).toEqual(
      (before as typeof after).filter((m) => m.id !== cutTurn.reply.id),
    );
    expect(after.find((m) => m.id === second.id)).toEqual({ id: second.id, chosen: 1, shown: 1 });
    expect(tree.restoreOrphans()).toEqual([]);
  });

  it('are found through the unchosen messages and lookups, not a walk over the messages', () => {
    const steps = readSteps(ORPHANED_SQL);
    expect(steps.some((step) => step.includes('messages_unchosen'))).toBe(true);
    expect(walks(steps, ['messages_unchosen'])).toEqual([]);
  });
});

describe('lists cut off while they ran', () => {
  it('are marked interrupted from the lists left running and the workers left live', () => {
    const conversations = createConversationRepo(db);
    const running = conversations.create('Running').id;
    const withWorker = conversations.create('Worker').id;
    const stopped = conversations.create('Stopped').id;
    const idle = conversations.create('Idle').id;
    const child = conversations.create('Transcript').id;
    db.prepare('UPDATE conversations SET parent_id = ? WHERE id = ?').run(withWorker, child);
    const state = db.prepare('INSERT INTO task_continuity (conversation_id, state, at) VALUES (?, ?, 0)');
    state.run(running, 'running');
    state.run(stopped, 'stopped');
    db.prepare(
      `INSERT INTO workers (id, conversation_id, number, owner, description, status, created_at)
       VALUES (?, ?, 1, 'main', 'Look it up', 'running', 0)`,
    ).run(child, withWorker);

    expect(createContinuityStore(db).markCutOff(5)).toBe(2);
    const store = createContinuityStore(db);
    expect([running, withWorker, stopped, idle, child].map((id) => store.state(id))).toEqual([
      'interrupted',
      'interrupted',
      'stopped',
      null,
      null,
    ]);
  });

  it('are found through the small sets and a key lookup per conversation, not a walk over the conversations', () => {
    const steps = readSteps(CUT_OFF_SQL, 0);
    expect(steps).toContainEqual(
      expect.stringMatching(/^SEARCH c USING INDEX sqlite_autoindex_conversations_1 \(id=\?\)/),
    );
    expect(walks(steps, ['task_continuity_running', 'workers_live'])).toEqual([]);
  });
});
