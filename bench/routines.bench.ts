// Routines: 500 routines due in the same minute run two at a time against the scripted
// model server, while the app keeps answering calls. Measures how long calls take
// meanwhile (target: p99 ≤ 100 ms), the most runs seen going at once (2 by design) and
// the time to get through all 500.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { ms, percentile, type Bench, type BenchRow } from './benchKit';

const ROUTINES = 500;

async function dueTogether(): Promise<BenchRow[]> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const { startScriptedServer } = await import('../tests/support/scriptedServer');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-routines-'));
  const server = await startScriptedServer({
    script: (request) => (request.body.stream ? { text: 'Routine done.' } : { text: 'Title' }),
  });
  let now = Date.parse('2026-03-02T10:00:30Z');
  const core = createNodeCore({
    dataDir: path.join(root, 'data'),
    env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-bench', STEPWISE_MODEL: 'bench' },
    chat: { log: () => {} },
    // The bench moves time itself: the scheduler's own timer never fires.
    routineClock: { now: () => now, setTimer: () => () => {} },
  });
  try {
    for (let i = 0; i < ROUTINES; i++) {
      const saved = await core.dispatch('routines:save', {
        id: null,
        routine: {
          name: `Routine ${i + 1}`,
          instructions: 'Say that the routine is done.',
          schedule: { kind: 'minutes', minutes: 1 },
          model: null,
          folderId: null,
          planReview: 'off',
          autopilot: false,
          tools: [],
          missed: 'skip',
        },
      });
      if (!saved.ok) throw new Error(JSON.stringify(saved.error));
    }
    let ended = 0;
    let most = 0;
    core.bus.on('activity:added', () => void ended++);
    const started = performance.now();
    now += 60_000;
    core.routines.tick();
    const samples: number[] = [];
    while (ended < ROUTINES) {
      most = Math.max(most, core.routines.runningCount());
      const t = performance.now();
      const answer = await core.dispatch('sidebar:rows', { offset: 0, limit: 50 });
      samples.push(performance.now() - t);
      if (!answer.ok) throw new Error(answer.error.message);
      await new Promise((r) => setTimeout(r, 10));
    }
    const total = performance.now() - started;
    return [
      {
        measure: `a call (sidebar:rows) while ${ROUTINES} due routines run (${samples.length} calls)`,
        p50: ms(percentile(samples, 50)),
        p99: ms(percentile(samples, 99)),
        note: 'target p99 ≤ 100 ms',
      },
      { measure: 'most runs going at once', p50: String(most), p99: '', note: 'by design 2' },
      { measure: `all ${ROUTINES} runs, due to the last one ended`, p50: ms(total), p99: '', note: '' },
    ];
  } finally {
    await core.close();
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const bench: Bench = { title: 'Routines: 500 due in the same minute', run: dueTogether };
export default bench;
