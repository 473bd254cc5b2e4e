// Message versions on a 100,000-message conversation: opening it (the first page of the
// shown branch) and switching a version near its start, which flips the flags of both
// sub-branches. Each against its floor in the same interleaved run: the page query from
// before versions (the app's figure includes the contract call and its checks), and one
// bare UPDATE flipping the same rows.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { interleave, ratioRow, type Bench, type BenchRow } from './benchKit';

const MESSAGES = 100_000;
const ROUNDS = 20;

const bench: Bench = {
  title: 'Message versions in a 100,000-message conversation',
  async run() {
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const { createVersionTree } = await import('../src/main/core/versions/versionTree');
    const rows: BenchRow[] = [];
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-versions-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
    try {
      const { id } = core.conversations.create('Long');
      const ids: number[] = [];
      core.db.transaction(() => {
        for (let i = 0; i < MESSAGES; i++) {
          ids.push(
            core.messages.insert({
              conversationId: id,
              role: i % 2 ? 'assistant' : 'user',
              content: `Message ${i} with some words`,
            }).id,
          );
        }
      })();
      // A second version of message 11, so nearly the whole conversation hangs below the switch.
      const tree = createVersionTree(core.db);
      const parent = ids[9];
      const edited = core.db.transaction(() => {
        tree.hideAfter(id, parent);
        tree.unchoose(id, parent);
        return core.messages.insert({
          conversationId: id,
          role: 'user',
          content: 'Edited',
          place: { parentId: parent, chosen: true, shown: true },
        }).id;
      })();
      tree.show(id, parent, ids[10]);

      const dispatch = async (name: 'messages:list' | 'messages:showVersion', params: unknown) => {
        const result = await core.dispatch(name, params);
        if (!result.ok) throw new Error(result.error.message);
      };
      const before = core.db.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT 101');
      const opened = await interleave(
        { app: () => dispatch('messages:list', { conversationId: id, limit: 100 }), floor: () => void before.all(id) },
        { rounds: ROUNDS },
      );
      rows.push(
        ratioRow('messages:list, first page of 100', opened.app, opened.floor, 'page query before versions', '≤ 5 ms'),
      );

      // There and back: the long branch hidden and the short one shown, then the reverse.
      const flip = core.db.prepare('UPDATE messages SET shown = 1 - shown WHERE conversation_id = ? AND id > ?');
      const switched = await interleave(
        {
          app: async () => {
            await dispatch('messages:showVersion', { conversationId: id, messageId: ids[10], index: 2 });
            await dispatch('messages:showVersion', { conversationId: id, messageId: edited, index: 1 });
          },
          floor: () => {
            flip.run(id, parent);
            flip.run(id, parent);
          },
        },
        { rounds: ROUNDS },
      );
      rows.push(
        ratioRow(
          `switch a version above ${(MESSAGES - 10).toLocaleString('en')} messages, and back`,
          switched.app,
          switched.floor,
          'bare UPDATE of the flags',
          '≤ 3×',
        ),
      );
    } finally {
      await core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
    return rows;
  },
};

export default bench;
