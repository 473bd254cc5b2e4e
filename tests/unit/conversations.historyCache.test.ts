// The message repository keeps recent histories in memory: whatever the sequence of
// writes (inside transactions that commit or roll back too), all() equals what SQLite holds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo, toMessage, type MessageRow } from '../../src/main/core/conversations/messageRepo';
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

type Op =
  | { kind: 'insert'; c: number; text: string }
  | { kind: 'update'; pick: number; text: string }
  | { kind: 'truncate'; c: number; pick: number }
  | { kind: 'txInsert'; c: number; text: string; commit: boolean }
  | { kind: 'read'; c: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), c: fc.nat(5), text: fc.string() }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), text: fc.string() }),
  fc.record({ kind: fc.constant('truncate' as const), c: fc.nat(5), pick: fc.nat() }),
  fc.record({ kind: fc.constant('txInsert' as const), c: fc.nat(5), text: fc.string(), commit: fc.boolean() }),
  fc.record({ kind: fc.constant('read' as const), c: fc.nat(5) }),
);

describe('message history cache', () => {
  it('always agrees with the database', () => {
    const conversations = createConversationRepo(db);
    const ids = Array.from({ length: 6 }, (_, i) => conversations.create(`C${i}`).id);
    const fresh = (id: string) =>
      db
        .prepare<[string], MessageRow>('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id')
        .all(id)
        .map(toMessage);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        db.prepare('DELETE FROM messages').run();
        const messages = createMessageRepo(db);
        for (const o of ops) {
          if (o.kind === 'insert') messages.insert({ conversationId: ids[o.c], role: 'user', content: o.text });
          if (o.kind === 'update') {
            const all = db.prepare<[], { id: number }>('SELECT id FROM messages').all();
            if (all.length) messages.update(all[o.pick % all.length].id, { content: o.text });
          }
          if (o.kind === 'truncate') {
            const all = messages.all(ids[o.c]);
            if (all.length) messages.truncateFrom(ids[o.c], all[o.pick % all.length].id);
          }
          if (o.kind === 'txInsert') {
            try {
              db.transaction(() => {
                messages.insert({ conversationId: ids[o.c], role: 'assistant', content: o.text });
                if (!o.commit) throw new Error('roll back');
              })();
            } catch {
              // rolled back on purpose
            }
          }
          if (o.kind === 'read') messages.all(ids[o.c]);
        }
        for (const id of ids) expect(messages.all(id)).toEqual(fresh(id));
      }),
      { numRuns: 200 },
    );
  });
});
