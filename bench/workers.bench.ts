// Workers: (1) the time from `start_task` to the worker's first request reaching the
// model server (target: under 100 ms); (2) 20 workers × 20 task updates each through the
// task tools under their own owner ids, interleaved — every update persisted, p95 per update.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { ms, percentile, type Bench, type BenchRow } from './benchKit';

const STARTS = 30;
const WORKERS = 20;
const UPDATES = 20;

async function startLatency(): Promise<BenchRow> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const { startScriptedServer } = await import('../tests/support/scriptedServer');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-workers-'));
  const server = await startScriptedServer({ script: () => ({ text: 'done' }) });
  const core = createNodeCore({
    dataDir: path.join(root, 'data'),
    env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-bench', STEPWISE_MODEL: 'bench' },
    chat: { log: () => {} },
  });
  try {
    await core.dispatch('settings:update', { patch: { workerConcurrency: 10 } });
    const conversation = core.conversations.create('bench');
    const samples: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const seen = server.requests.length;
      const started = Date.now();
      await core.tools.run('start_task', JSON.stringify({ task_description: `Bench task ${i}` }), {
        conversationId: conversation.id,
        agentId: 'main',
        signal: new AbortController().signal,
      });
      while (server.requests.length === seen) await new Promise((r) => setImmediate(r));
      samples.push(server.requests[seen].at - started);
      while (core.workers.active(conversation.id)) await new Promise((r) => setTimeout(r, 2));
      await core.chat.stop(conversation.id);
    }
    return {
      measure: `start_task → worker's first request (${STARTS} starts)`,
      p50: ms(percentile(samples, 50)),
      p95: ms(percentile(samples, 95)),
      note: 'target < 100 ms',
    };
  } finally {
    core.close();
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function concurrentUpdates(): Promise<BenchRow> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-updates-'));
  const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
  try {
    await core.dispatch('settings:update', { patch: { taskToolStyle: 'granular' } });
    const conversation = core.conversations.create('bench');
    const signal = new AbortController().signal;
    const run = (agentId: string, name: string, args: unknown) =>
      core.tools.run(name, JSON.stringify(args), { conversationId: conversation.id, agentId, signal });
    for (let n = 1; n <= WORKERS; n++) await run('main', 'task_create', { title: `Part ${n}` });
    const samples: number[] = [];
    let failed = 0;
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, i) => {
        const agentId = `worker-${i + 1}`;
        for (let u = 0; u < UPDATES; u++) {
          const args =
            u % 2 === 0
              ? { taskId: i + 1, status: 'in_progress', activeForm: `Working on part ${i + 1}, step ${u}` }
              : { taskId: i + 1, description: `Step ${u} of part ${i + 1}` };
          const start = performance.now();
          const result = await run(agentId, 'task_update', args);
          samples.push(performance.now() - start);
          if (!JSON.parse(result.content).ok) failed++;
          await new Promise((r) => setImmediate(r));
        }
      }),
    );
    const events = core.db
      .prepare("SELECT COUNT(*) AS n FROM task_events WHERE actor LIKE 'worker-%' AND kind = 'updated'")
      .get() as { n: number };
    return {
      measure: `${WORKERS} workers × ${UPDATES} task updates, interleaved`,
      p50: ms(percentile(samples, 50)),
      p95: ms(percentile(samples, 95)),
      note: `persisted ${events.n}/${WORKERS * UPDATES - failed} (${failed} refused)`,
    };
  } finally {
    core.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const bench: Bench = {
  title: 'Workers',
  async run() {
    return [await startLatency(), await concurrentUpdates()];
  },
};

export default bench;
