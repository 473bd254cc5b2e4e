// Task lists: (1) a full-list replace of 50 tasks through manage_todo_list on the SQLite
// store, against a JSON-file store done the way ../shared/seeds/001 describes (read the
// whole file, modify, write it back — here with fsync); (2) the time from a tool call's
// start to a browser-host WebSocket client receiving `tasks:changed`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { registerRawImports } from './rawImports';
import { ms, percentile, time, type Bench, type BenchRow } from './benchKit';

const TASKS = 50;
const RUNS = 200;
const UPDATES = 1000;

interface Item {
  id: number;
  title: string;
  description: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** The list after `step` steps of work: one task in progress, the ones before it completed. */
function listAt(step: number, size = TASKS): Item[] {
  const current = step % size;
  return Array.from({ length: size }, (_, i) => ({
    id: i + 1,
    title: `Step ${i + 1} of the plan`,
    description: `What done looks like for step ${i + 1}.`,
    status: i < current ? 'completed' : i === current ? 'in_progress' : 'pending',
  }));
}

/** The JSON-file store of seed 001: one file per conversation, rewritten whole on every change. */
function jsonFileStore(dir: string, conversationId: string) {
  const file = path.join(dir, '.agents', 'tasks', `${conversationId.replaceAll('-', '')}.json`);
  return {
    replace(items: Item[]) {
      let current: { tasks: unknown[] } = { tasks: [] };
      if (fs.existsSync(file)) current = JSON.parse(fs.readFileSync(file, 'utf8')) as { tasks: unknown[] };
      else fs.mkdirSync(path.dirname(file), { recursive: true });
      current.tasks = items.map((t) => ({ id: String(t.id), title: t.title, description: t.description, done: t.status === 'completed' }));
      const fd = fs.openSync(file, 'w');
      try {
        fs.writeSync(fd, JSON.stringify(current, null, 2));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}

async function storeComparison(root: string): Promise<BenchRow[]> {
  registerRawImports();
  const { openDatabase } = await import('../src/main/core/db/openDatabase');
  const { createEventBus } = await import('../src/main/core/ipc/eventBus');
  const { createConversationRepo } = await import('../src/main/core/conversations/conversationRepo');
  const { createTaskService } = await import('../src/main/core/tasks/taskService');
  const { createTaskTools } = await import('../src/main/core/tasks/taskTools');

  async function sqlite(synchronous: 'NORMAL' | 'FULL') {
    const dir = fs.mkdtempSync(path.join(root, `sqlite-${synchronous}-`));
    const { db } = openDatabase(dir);
    db.pragma(`synchronous = ${synchronous}`);
    const conversationId = createConversationRepo(db).create('bench').id;
    const tool = createTaskTools(createTaskService({ db, bus: createEventBus() })).find((t) => t.name === 'manage_todo_list')!;
    const ctx = { conversationId, agentId: 'main', signal: new AbortController().signal };
    let step = 0;
    const timing = await time(() => tool.handler({ todoList: listAt(step++) }, ctx), { runs: RUNS, warmup: 5 });
    db.close();
    return timing;
  }

  const normal = await sqlite('NORMAL');
  const full = await sqlite('FULL');
  const jsonDir = fs.mkdtempSync(path.join(root, 'json-'));
  const store = jsonFileStore(jsonDir, crypto.randomUUID());
  let step = 0;
  const json = await time(() => store.replace(listAt(step++)), { runs: RUNS, warmup: 5 });

  const row = (name: string, t: { p50: number; p95: number; mean: number }): BenchRow => ({
    case: name,
    runs: RUNS,
    p50: ms(t.p50),
    p95: ms(t.p95),
    mean: ms(t.mean),
    'p50 ÷ SQLite default': `${(t.p50 / normal.p50).toFixed(2)}×`,
  });
  return [
    row('Replace 50 tasks: SQLite, app default (WAL, synchronous=NORMAL), whole tool path', normal),
    row('Replace 50 tasks: SQLite, fsync per commit (synchronous=FULL), whole tool path', full),
    row('Replace 50 tasks: JSON file (seed 001): read all, modify, write back + fsync', json),
  ];
}

async function eventLatency(root: string): Promise<BenchRow[]> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const { startHost } = await import('../src/main/host/server');
  const rendererDir = fs.mkdtempSync(path.join(root, 'renderer-'));
  const core = createNodeCore({ dataDir: path.join(root, 'host-data'), env: {} });
  const host = await startHost({ core, rendererDir, port: 0 });
  const origin = `http://127.0.0.1:${host.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { Origin: origin } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    const conversationId = core.conversations.create('bench').id;
    const ctx = { conversationId, agentId: 'main', signal: new AbortController().signal };
    let waiting: ((at: number) => void) | null = null;
    ws.on('message', (data) => {
      const at = performance.now();
      const frame = JSON.parse(data.toString()) as { event?: string };
      if (frame.event === 'tasks:changed') waiting?.(at);
    });
    const samples: number[] = [];
    for (let i = -20; i < UPDATES; i++) {
      const received = new Promise<number>((resolve) => (waiting = resolve));
      const start = performance.now();
      const result = await core.tools.run('manage_todo_list', JSON.stringify({ todoList: listAt(i + 20, 10) }), ctx);
      if (!result.ok || result.content.startsWith('Error')) throw new Error(result.content);
      const at = await received;
      if (i >= 0) samples.push(at - start);
    }
    return [
      {
        case: 'Tool call start → browser-host WebSocket client has tasks:changed (10-task list)',
        runs: UPDATES,
        p50: ms(percentile(samples, 50)),
        p95: ms(percentile(samples, 95)),
        mean: ms(samples.reduce((a, b) => a + b, 0) / samples.length),
      },
    ];
  } finally {
    ws.close();
    await host.close();
    core.close();
  }
}

const bench: Bench = {
  title: 'Task lists: SQLite store vs JSON file, and tasks:changed latency over the browser host',
  async run() {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-tasks-'));
    try {
      return [...(await storeComparison(root)), ...(await eventLatency(root))];
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
