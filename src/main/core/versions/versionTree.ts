// The message tree's writes (migration 13). A conversation's messages form a tree through
// parent_id; siblings are versions of one message, and exactly one of them is `chosen`.
// `shown` marks the branch the conversation shows (the chosen version at every step), so
// listing it stays one keyset query; switching versions flips the flags of the two
// sub-branches. Every function here runs inside the caller's transaction.
import type { Db } from '../db/openDatabase';
import type { MessageRow } from '../conversations/messageRepo';

export type TreeNode = Pick<MessageRow, 'id' | 'conversation_id' | 'role' | 'origin' | 'kind'> & {
  parent_id: number | null;
  shown: number;
};

/**
 * The shown branch's last message whose children are all unchosen: a regenerate took the
 * old reply off the branch and its new version was never stored (the host was killed).
 * Read from the unchosen messages (old versions, migration 26's partial index), each a
 * lookup of its chosen sibling and of its conversation's last shown message, so the check
 * does not grow with the conversations or their messages. Exported for its query-plan test.
 */
export const ORPHANED_SQL = `SELECT DISTINCT u.conversation_id, u.parent_id AS id FROM messages u
     WHERE u.chosen = 0 AND u.parent_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM messages c
                       WHERE c.parent_id = u.parent_id AND c.conversation_id = u.conversation_id AND c.chosen = 1)
       AND u.parent_id = (SELECT MAX(s.id) FROM messages s WHERE s.conversation_id = u.conversation_id AND s.shown = 1)`;

export function createVersionTree(db: Db) {
  const node = db.prepare<[number], TreeNode>(
    'SELECT id, conversation_id, parent_id, role, origin, kind, shown FROM messages WHERE id = ?',
  );
  // Every shown message after the parent is in the sub-branch being replaced (ids grow
  // along a branch, and the shown messages form one path).
  const hideAfter = db.prepare<[string, number]>(
    'UPDATE messages SET shown = 0 WHERE conversation_id = ? AND shown = 1 AND id > ?',
  );
  const choose = db.prepare<[number, number | null, string]>(
    'UPDATE messages SET chosen = (id = ?) WHERE parent_id IS ? AND conversation_id = ?',
  );
  const unchooseAll = db.prepare<[number | null, string]>(
    'UPDATE messages SET chosen = 0 WHERE parent_id IS ? AND conversation_id = ? AND chosen = 1',
  );
  // Down from a version, the chosen child at each step: the branch it had when last shown.
  const showPath = db.prepare<[number]>(
    `WITH RECURSIVE path(id) AS (
       SELECT ? UNION ALL SELECT m.id FROM messages m JOIN path p ON m.parent_id = p.id WHERE m.chosen = 1)
     UPDATE messages SET shown = 1 WHERE id IN path`,
  );
  const children = db.prepare<[number | null, string], { id: number; chosen: number; shown: number }>(
    'SELECT id, chosen, shown FROM messages WHERE parent_id IS ? AND conversation_id = ? ORDER BY id',
  );

  const orphaned = db.prepare<[], { conversation_id: string; id: number }>(ORPHANED_SQL);

  function restoreAfter(conversationId: string, parentId: number | null): number | null {
    const rows = children.all(parentId, conversationId);
    if (!rows.length || rows.some((row) => row.chosen || row.shown)) return null;
    const newest = rows.at(-1)!.id;
    choose.run(newest, parentId, conversationId);
    showPath.run(newest);
    return newest;
  }

  return {
    node: (id: number): TreeNode | undefined => node.get(id),
    /** Takes the sub-branch after `parentId` (null: the whole branch) off the shown branch. */
    hideAfter(conversationId: string, parentId: number | null): void {
      hideAfter.run(conversationId, parentId ?? 0);
    },
    /** Makes `versionId` the shown version among its siblings, with the branch below it. */
    show(conversationId: string, parentId: number | null, versionId: number): void {
      hideAfter.run(conversationId, parentId ?? 0);
      choose.run(versionId, parentId, conversationId);
      showPath.run(versionId);
    },
    /** No version after `parentId` is chosen: the next message stored becomes one. */
    unchoose(conversationId: string, parentId: number | null): void {
      unchooseAll.run(parentId, conversationId);
    },
    /**
     * When a new version never came (a run stopped before it wrote anything), the newest
     * old one is shown again, so no version is left out of reach. Returns its id.
     */
    restoreAfter,
    /**
     * At start-up, before any loop runs: every conversation whose regenerate never stored
     * its new version shows its newest old one again. Returns the versions shown again.
     */
    restoreOrphans(): Array<{ conversationId: string; versionId: number }> {
      const restored: Array<{ conversationId: string; versionId: number }> = [];
      for (const row of orphaned.all()) {
        const versionId = restoreAfter(row.conversation_id, row.id);
        if (versionId !== null) restored.push({ conversationId: row.conversation_id, versionId });
      }
      return restored;
    },
  };
}

export type VersionTree = ReturnType<typeof createVersionTree>;
