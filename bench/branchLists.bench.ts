// Switching versions when each branch has its own task list (tasks/branchLists.ts): a
// 10,000-message conversation with a second version near its start and a 20-task list on
// each branch. One switch parks the shown branch's list, flips the tree and opens the
// other branch's list, then pushes it. Against the same switch in a twin conversation
// without lists, in the same interleaved run.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { interleave, ratioRow, type Bench, type BenchRow } from './benchKit';

const MESSAGES = 10_000;
const TASKS = 20;
const ROUNDS = 20;

const bench: Bench = {
  title: 'Task lists on message versions in a 10,000-message conversation',
  async run() {
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const { createVersionTree } = await import('../src/main/core/versions/versionTree');
    const { fullListOp } = await import('../src/main/core/tasks/taskOps');
    const { agentWho } = await import('../src/main/core/tasks/taskService');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-branch-lists-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
    const tree = createVersionTree(core.db);
    const model = agentWho('main');
    const plan = (label: string) =>
      fullListOp(
        Array.from({ length: TASKS }, (_, i) => ({
          id: i + 1,
          title: `${label} step ${i + 1}`,
          status: i === 0 ? 'in_progress' : 'pending',
        })),
        model,
      );

    /** A conversation with a second version of message 11; with `lists`, each branch has a list. Returns the two versions. */
    function conversation(lists: boolean) {
      const { id } = core.conversations.create(lists ? 'With lists' : 'Without lists');
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
      if (lists && !core.tasks.change(id, model, plan('Old')).ok) throw new Error('the old branch list was refused');
      const parent = ids[9];
      const edited = core.db.transaction(() => {
        core.tasks.branches.leave(id, ids[10]);
        tree.hideAfter(id, parent);
        tree.unchoose(id, parent);
        return core.messages.insert({
          conversationId: id,
          role: 'user',
          content: 'Edited',
          place: { parentId: parent, chosen: true, shown: true },
        }).id;
      })();
      if (lists && !core.tasks.change(id, model, plan('New')).ok) throw new Error('the new branch list was refused');
      return { id, versions: [ids[10], edited] };
    }

    const rows: BenchRow[] = [];
    try {
      const withLists = conversation(true);
      const without = conversation(false);
      /** Shows the other version each time it is called (version 2, the edit, is shown first). */
      const switcher = ({ id, versions }: { id: string; versions: number[] }) => {
        let shown = 2;
        return async () => {
          const result = await core.dispatch('messages:showVersion', {
            conversationId: id,
            messageId: versions[shown - 1],
            index: 3 - shown,
          });
          if (!result.ok) throw new Error(result.error.message);
          shown = 3 - shown;
        };
      };
      const app = switcher(withLists);
      const floor = switcher(without);
      // An even number of switches: the edited branch is shown again at the end.
      const switched = await interleave({ app, floor }, { rounds: ROUNDS, warmup: 2 });
      const list = core.tasks.get(withLists.id);
      if (!list || list.tasks.length !== TASKS) throw new Error('the shown branch lost its list');
      rows.push(
        ratioRow(
          `switch a version above ${(MESSAGES - 10).toLocaleString('en')} messages, a ${TASKS}-task list on each branch`,
          switched.app,
          switched.floor,
          'same switch without lists',
          '≤ 150 ms',
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
