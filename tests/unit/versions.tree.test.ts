// The message version tree (migration 13) against a model of it: whatever the sequence of
// appends, edits (a new version of a shown message), regenerations (a new version of what
// follows a message) and switches, the shown branch is the chosen version at every step,
// exactly one version is chosen among siblings, keyset pages and the cached history agree
// with it, and each message's "i of n" is right. Also the file form of the tree (imports).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo, type MessageRow } from '../../src/main/core/conversations/messageRepo';
import { createVersionTree } from '../../src/main/core/versions/versionTree';
import { placements, treeProblems } from '../../src/main/core/versions/fileTree';
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
  | { kind: 'append' }
  | { kind: 'edit'; pick: number }
  | { kind: 'regenerate'; pick: number }
  | { kind: 'switch'; pick: number; to: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('append' as const) }), weight: 3 },
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('regenerate' as const), pick: fc.nat() }),
  { arbitrary: fc.record({ kind: fc.constant('switch' as const), pick: fc.nat(), to: fc.nat() }), weight: 2 },
);

/** The tree as the test believes it is: children in order, and the chosen one of each parent. */
function model() {
  const children = new Map<number | null, number[]>();
  const chosen = new Map<number | null, number>();
  const parentOf = new Map<number, number | null>();
  return {
    parentOf,
    add(id: number, parent: number | null) {
      parentOf.set(id, parent);
      children.set(parent, [...(children.get(parent) ?? []), id]);
      chosen.set(parent, id);
    },
    choose: (parent: number | null, id: number) => void chosen.set(parent, id),
    unchoose: (parent: number | null) => void chosen.delete(parent),
    branch(): number[] {
      const out: number[] = [];
      for (let at = chosen.get(null); at !== undefined; at = chosen.get(at)) out.push(at);
      return out;
    },
    siblings: (id: number) => children.get(parentOf.get(id)!) ?? [],
  };
}

describe('message version tree', () => {
  it('always shows the chosen version at every step, with consistent flags, pages and counts', () => {
    const conversations = createConversationRepo(db);
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        db.prepare('DELETE FROM conversations').run();
        const conversationId = conversations.create('Versions').id;
        const messages = createMessageRepo(db);
        const tree = createVersionTree(db);
        const m = model();
        let text = 0;
        const append = () =>
          m.add(messages.insert({ conversationId, role: 'user', content: `m${text++}` }).id, m.branch().at(-1) ?? null);
        for (const o of ops) {
          const branch = m.branch();
          if (o.kind === 'append' || !branch.length) {
            append();
            continue;
          }
          const picked = branch[o.pick % branch.length];
          const parent = m.parentOf.get(picked)!;
          if (o.kind === 'edit') {
            db.transaction(() => {
              tree.hideAfter(conversationId, parent);
              tree.unchoose(conversationId, parent);
              const id = messages.insert({
                conversationId,
                role: 'user',
                content: `m${text++}`,
                place: { parentId: parent, chosen: true, shown: true },
              }).id;
              m.add(id, parent);
            })();
          } else if (o.kind === 'regenerate') {
            tree.hideAfter(conversationId, picked);
            tree.unchoose(conversationId, picked);
            m.unchoose(picked);
            messages.forget(conversationId);
            append();
          } else {
            const versions = messages.versionsOf({ parent_id: parent, conversation_id: conversationId });
            expect(versions).toEqual(m.siblings(picked));
            const target = versions[o.to % versions.length];
            tree.show(conversationId, parent, target);
            m.choose(parent, target);
          }
          messages.forget(conversationId);
        }

        const expected = m.branch();
        expect(messages.all(conversationId).map((x) => x.id)).toEqual(expected);
        // The cached history agrees once loaded (a second read comes from memory).
        expect(messages.all(conversationId).map((x) => x.id)).toEqual(expected);
        // Keyset pages of 3 walk the same branch.
        const paged: number[] = [];
        for (let before: number | undefined, more = true; more;) {
          const page = messages.pageBefore(conversationId, before, 3);
          paged.unshift(...page.items.map((x) => x.id));
          more = page.hasMore;
          before = page.items[0]?.id;
        }
        expect(paged).toEqual(expected);
        // Exactly one chosen version wherever there are versions; shown = on the branch.
        const rows = db
          .prepare<[string], MessageRow>('SELECT * FROM messages WHERE conversation_id = ?')
          .all(conversationId);
        const chosenPerParent = new Map<number | null, number>();
        for (const row of rows)
          if (row.chosen)
            chosenPerParent.set(row.parent_id ?? null, (chosenPerParent.get(row.parent_id ?? null) ?? 0) + 1);
        for (const count of chosenPerParent.values()) expect(count).toBe(1);
        expect(rows.filter((r) => r.shown).map((r) => r.id)).toEqual(expected);
        for (const id of expected) {
          const siblings = m.siblings(id);
          expect(messages.get(id)!.version ?? null).toEqual(
            siblings.length > 1 ? { index: siblings.indexOf(id) + 1, count: siblings.length } : null,
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a branch switched away and back comes back as it was left', () => {
    const conversationId = createConversationRepo(db).create('Nested').id;
    const messages = createMessageRepo(db);
    const tree = createVersionTree(db);
    const say = (content: string) => messages.insert({ conversationId, role: 'user', content }).id;
    const q1 = say('q1');
    const a1 = say('a1');
    say('q2');
    say('a2');
    // A second reply to q1, then under it a second version of its follow-up.
    tree.hideAfter(conversationId, q1);
    tree.unchoose(conversationId, q1);
    const b1 = say('b1');
    const f1 = say('f1');
    tree.hideAfter(conversationId, b1);
    tree.unchoose(conversationId, b1);
    say('f2');
    tree.show(conversationId, b1, f1);
    const texts = () => {
      messages.forget(conversationId);
      return messages.all(conversationId).map((m) => m.content);
    };
    expect(texts()).toEqual(['q1', 'b1', 'f1']);
    tree.show(conversationId, q1, a1);
    expect(texts()).toEqual(['q1', 'a1', 'q2', 'a2']);
    tree.show(conversationId, q1, b1);
    expect(texts()).toEqual(['q1', 'b1', 'f1']);
  });

  it('a regeneration that wrote nothing gives the old version back', () => {
    const conversationId = createConversationRepo(db).create('Restore').id;
    const messages = createMessageRepo(db);
    const tree = createVersionTree(db);
    const q = messages.insert({ conversationId, role: 'user', content: 'q' }).id;
    const a = messages.insert({ conversationId, role: 'assistant', content: 'a' }).id;
    tree.hideAfter(conversationId, q);
    tree.unchoose(conversationId, q);
    expect(tree.restoreAfter(conversationId, q)).toBe(a);
    messages.forget(conversationId);
    expect(messages.all(conversationId).map((m) => m.content)).toEqual(['q', 'a']);
    // With a new version written, nothing is restored.
    tree.hideAfter(conversationId, q);
    tree.unchoose(conversationId, q);
    messages.insert({ conversationId, role: 'assistant', content: 'b' });
    expect(tree.restoreAfter(conversationId, q)).toBeNull();
  });
});

describe('versions in a conversation file', () => {
  it('reads absent fields as a straight line, all shown', () => {
    const file = [{ id: 1 }, { id: 2 }, { id: 3 }];
    expect(treeProblems(file, 'messages:')).toEqual([]);
    expect([...placements(file).entries()]).toEqual([
      [1, { parent: null, chosen: true, shown: true }],
      [2, { parent: 1, chosen: true, shown: true }],
      [3, { parent: 2, chosen: true, shown: true }],
    ]);
  });

  it('chooses the shown version, or the newest where none is shown', () => {
    const file = [
      { id: 1, parent: null, shown: true },
      { id: 2, parent: 1, shown: false },
      { id: 3, parent: 2, shown: false },
      { id: 4, parent: 2, shown: false },
      { id: 5, parent: 1, shown: true },
    ];
    expect(treeProblems(file, 'messages:')).toEqual([]);
    const placed = placements(file);
    expect([2, 3, 4, 5].map((id) => placed.get(id)!.chosen)).toEqual([false, false, true, true]);
  });

  it('names a parent that is not earlier, and a shown branch with a gap', () => {
    expect(
      treeProblems(
        [
          { id: 1, parent: 2 },
          { id: 2, parent: null, shown: false },
        ],
        'messages:',
      ),
    ).toEqual([
      'messages: message 1: its parent 2 is not an earlier message of the same transcript',
      'messages: message 1: a shown message must follow the previous shown one (none), not 2',
    ]);
    expect(
      treeProblems(
        [
          { id: 1, parent: null },
          { id: 2, parent: 1, shown: false },
          { id: 3, parent: 2, shown: true },
        ],
        'messages:',
      ),
    ).toEqual(['messages: message 3: a shown message must follow the previous shown one (1), not 2']);
  });
});
