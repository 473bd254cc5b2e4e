// Profiling aid for the one-row task change of tasks.bench.ts: a 50-task list, one task
// changed per `manage_todo_list` call through the tool registry and the task core, for
// STEPWISE_BENCH_CALLS calls (10,000 by default). Run it under `node --cpu-prof` to see
// where a call's time goes (docs/performance.md, "Where a task write spends its time").
import { registerRawImports } from '../rawImports';
import { makeTempDir } from '../../tests/support/tempDir';

registerRawImports();
const TASKS = 50;
const CALLS = Number(process.env.STEPWISE_BENCH_CALLS ?? 10_000);
const { createNodeCore } = await import('../../src/main/core/createNodeCore');
const core = createNodeCore({ dataDir: `${makeTempDir('stepwise-onerow-')}/data`, env: {}, chat: { log: () => {} } });
const conversationId = core.conversations.create('bench').id;
core.messages.insert({ conversationId, role: 'user', content: 'Plan it' });
const reply = core.messages.insert({ conversationId, role: 'assistant', content: 'Planning.' });
const ctx = { conversationId, agentId: 'main', signal: new AbortController().signal, messageId: reply.id };

const list = Array.from({ length: TASKS }, (_, i) => ({
  id: i + 1,
  title: `Step ${i + 1} of the plan`,
  description: `What done looks like for step ${i + 1}.`,
  status: 'pending',
}));
// Task `i % 50` flips between pending and completed: after 100 calls the list is back.
const calls = Array.from({ length: 2 * TASKS }, (_, i) => {
  const task = list[i % TASKS];
  task.status = task.status === 'completed' ? 'pending' : 'completed';
  return JSON.stringify({ todoList: list });
});
const first = await core.tools.run(
  'manage_todo_list',
  JSON.stringify({ todoList: list.map((t) => ({ ...t, status: 'pending' })) }),
  ctx,
);
if (!first.ok) throw new Error(first.content);
const samples: number[] = [];
const start = performance.now();
for (let i = 0; i < CALLS; i++) {
  const began = performance.now();
  const result = await core.tools.run('manage_todo_list', calls[i % calls.length], ctx);
  if (!result.ok) throw new Error(result.content);
  samples.push(performance.now() - began);
}
const elapsed = performance.now() - start;
samples.sort((a, b) => a - b);
const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))].toFixed(3);
console.log(
  `${CALLS} calls: mean ${(elapsed / CALLS).toFixed(3)} ms, median ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)} ms`,
);
core.close();
