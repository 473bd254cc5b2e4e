// Plan review's gate: what it adds to a tool call. The same no-op tool that acts (not
// safe while planning) runs through the registry in a conversation with review off and in
// conversations with an approved plan in each review mode (the gate reads the mode, the
// open list and its approval; "Every plan" also compares the list with the approved
// revision), interleaved; 1,000 calls per sample. Goal: ≤ 0.1 ms per call more than off.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { registerRawImports } from './rawImports';
import { interleave, type Bench } from './benchKit';

const CALLS = 1000;

const bench: Bench = {
  title: 'Plan review gate (per tool call)',
  async run() {
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const { defineTool } = await import('../src/main/core/tools/toolTypes');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-plan-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
    try {
      core.tools.register(
        defineTool({
          name: 'act',
          description: 'Changes nothing, quickly.',
          parameters: z.object({}),
          handler: () => 'ok',
        }),
      );
      const off = core.conversations.create('Off').id;
      await core.dispatch('plan:setMode', { conversationId: off, mode: 'off' });
      const todoList = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, title: `Step ${i + 1}`, status: 'pending' }));
      const signal = new AbortController().signal;
      /** A conversation in `mode` whose 20-task plan is approved. */
      const approved = async (mode: 'before_acting' | 'every_plan') => {
        const id = core.conversations.create(mode).id;
        await core.dispatch('plan:setMode', { conversationId: id, mode });
        await core.tools.run('manage_todo_list', JSON.stringify({ todoList }), {
          conversationId: id,
          agentId: 'main',
          signal,
        });
        const tasks = core.tasks.get(id)!.tasks.map((t) => ({ id: t.id, title: t.title }));
        core.db
          .prepare(
            'INSERT INTO plan_revisions (conversation_id, list_id, revision, tasks, comments, approved_at, created_at) VALUES (?, ?, 1, ?, \'{"general":"","tasks":[]}\', 1, 1)',
          )
          .run(id, core.tasks.get(id)!.id, JSON.stringify(tasks));
        return id;
      };
      const before = await approved('before_acting');
      const every = await approved('every_plan');
      const calls = (conversationId: string) => async () => {
        for (let i = 0; i < CALLS; i++) {
          const result = await core.tools.run('act', '{}', { conversationId, agentId: 'main', signal });
          if (!result.ok) throw new Error(result.content);
        }
      };
      const result = await interleave({ off: calls(off), before: calls(before), every: calls(every) }, { rounds: 15 });
      const perCall = (value: number) => `${((value * 1000) / CALLS).toFixed(1)} µs`;
      const row = (measure: string, gated: typeof result.off) => {
        const added = (gated.median - result.off.median) / CALLS;
        return {
          measure,
          rounds: gated.rounds,
          'off median': perCall(result.off.median),
          'gated median': perCall(gated.median),
          'added per call': `${(added * 1000).toFixed(1)} µs`,
          goal: '≤ 100 µs',
          met: added <= 0.1 ? 'yes' : 'NO',
        };
      };
      return [
        row('tool call, approved plan (before tools that change things)', result.before),
        row('tool call, approved plan (every plan: amendment check)', result.every),
      ];
    } finally {
      await core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
