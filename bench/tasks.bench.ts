// Task lists: (1) a full-list replace of 50 tasks through manage_todo_list on the SQLite
// store, against a JSON-file store done the way ../shared/seeds/001 describes (read the
// whole file, modify, write it back — here with fsync); (2) the time from a tool call's
// start to a browser-host WebSocket client receiving `tasks:changed`. The fsync row is
// measured in steady state; a third row shows a fresh database, whose growing WAL pays
// for block allocation the way the JSON file does on every write.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { registerRawImports } from './rawImports';
import { interleave, ms, percentile, ratioRow, type Bench, type BenchRow } from './benchKit';

const TASKS = 50;
const RUNS = Number(process.env.STEPWISE_BENCH_ROUNDS ?? 200);
const UPDATES = Number(process.env.STEPWISE_BENCH_UPDATES ?? 1000);
/** Enough commits (4.2 WAL pages each since migration 22) to fill a 1000-page WAL once, so it is checkpointed and reused. */
const WAL_WARMUP_CALLS = 300;
/**
 * Calls of each side before the one-row change is measured in steady state: V8 compiles
 * the app's JavaScript over its first few thousand calls (the floor's three statements are
 * native code from the first), and both WALs fill and are checkpointed at least once.
 */
const STEADY_WARMUP_CALLS = 2000;

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
      current.tasks = items.map((t) => ({
        id: String(t.id),
        title: t.title,
        description: t.description,
        done: t.status === 'completed',
      }));
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

/**
 * The same row writes as one step of the app's replace, as bare statements: two tasks
 * change status (one done, the next in progress) and each gets its event row.
 */
function bareWriter(db: import('better-sqlite3').Database, listId: number) {
  const ids = (
    db.prepare('SELECT id FROM tasks WHERE list_id = ? ORDER BY position').all(listId) as Array<{ id: number }>
  ).map((r) => r.id);
  const update = db.prepare('UPDATE tasks SET status = ?, updated_at = ? WHERE id = ?');
  const event = db.prepare(
    "INSERT INTO task_events (list_id, task_id, at, actor, kind, before, after) VALUES (?, ?, ?, 'model', 'updated', ?, ?)",
  );
  let step = 0;
  return db.transaction(() => {
    const done = ids[step % ids.length];
    const next = ids[(step + 1) % ids.length];
    const at = Date.now();
    update.run('completed', at, done);
    event.run(listId, done, at, '{"status":"in_progress"}', '{"status":"completed"}');
    update.run('in_progress', at, next);
    event.run(listId, next, at, '{"status":"pending"}', '{"status":"in_progress"}');
    step++;
  });
}

async function storeComparison(root: string): Promise<BenchRow[]> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');

  /** The app's real path: the tool registry (JSON arguments, schema) and the task core. */
  async function appPath(synchronous: 'NORMAL' | 'FULL') {
    const core = createNodeCore({
      dataDir: fs.mkdtempSync(path.join(root, `app-${synchronous}-`)),
      env: {},
      chat: { log: () => {} },
    });
    core.db.pragma(`synchronous = ${synchronous}`);
    const conversationId = core.conversations.create('bench').id;
    core.messages.insert({ conversationId, role: 'user', content: 'Plan it' });
    // The reply whose tool calls these are: a change belongs to it (task.lastMessageId), and
    // the agent loop names it in the call's context.
    const reply = core.messages.insert({ conversationId, role: 'assistant', content: 'Planning.' });
    const ctx = { conversationId, agentId: 'main', signal: new AbortController().signal, messageId: reply.id };
    // A model's arguments arrive as text: the calls are written before the clock starts.
    const calls = Array.from({ length: TASKS }, (_, i) => JSON.stringify({ todoList: listAt(i) }));
    let step = 0;
    const run = async () => {
      const result = await core.tools.run('manage_todo_list', calls[step++ % TASKS], ctx);
      if (!result.ok) throw new Error(result.content);
    };
    await run();
    const listId = (core.db.prepare('SELECT id FROM task_lists WHERE closed_at IS NULL').get() as { id: number }).id;
    return { core, run, listId };
  }

  const normal = await appPath('NORMAL');
  const full = await appPath('FULL');
  // Steady state, as in a session after its first ~1000 page writes: the WAL has filled
  // once and been checkpointed, so commits overwrite its blocks rather than grow the
  // file. The JSON file is rewritten whole (truncated, new blocks) on every call by design.
  for (let i = 0; i < WAL_WARMUP_CALLS; i++) await full.run();
  const fresh = await appPath('FULL');
  // The floor writes into a copy of the same schema and list, beside the app's.
  const bare = await appPath('NORMAL');
  const bareStep = bareWriter(bare.core.db, bare.listId);
  const store = jsonFileStore(fs.mkdtempSync(path.join(root, 'json-')), crypto.randomUUID());
  let jsonStep = 0;
  try {
    const result = await interleave(
      {
        app: normal.run,
        bare: () => bareStep(),
        appFull: full.run,
        appFresh: fresh.run,
        json: () => store.replace(listAt(jsonStep++)),
      },
      { rounds: RUNS, warmup: 5 },
    );
    return [
      ratioRow(
        'manage_todo_list replacing 50 tasks (registry + core, WAL)',
        result.app,
        result.bare,
        'bare better-sqlite3, same row writes',
        '≤ 3×',
      ),
      ratioRow(
        'the same with fsync per commit (synchronous=FULL)',
        result.appFull,
        result.json,
        'JSON file + fsync (seed 001)',
        '< 1× (faster)',
      ),
      ratioRow(
        '  … on a fresh database (its WAL still growing: appends allocate)',
        result.appFresh,
        result.json,
        'JSON file + fsync (seed 001)',
        '—',
      ),
    ];
  } finally {
    for (const c of [normal, full, fresh, bare]) c.core.close();
  }
}

/**
 * The calls of a model that changes one task per call (task `i % 50` flips between pending
 * and completed), as text; after 100 calls the list is back where it began.
 */
function oneChangeCalls(): string[] {
  const list = listAt(0).map((t) => ({ ...t, status: 'pending' as Item['status'] }));
  return Array.from({ length: 2 * TASKS }, (_, i) => {
    const task = list[i % TASKS];
    task.status = task.status === 'completed' ? 'pending' : 'completed';
    return JSON.stringify({ todoList: list });
  });
}

/**
 * One task changed per call, against the floor the issue names: a bare better-sqlite3
 * transaction that parses the same arguments and UPDATEs only the changed row.
 */
async function oneRowComparison(root: string): Promise<BenchRow[]> {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const calls = oneChangeCalls();
  const open = () => {
    const core = createNodeCore({ dataDir: fs.mkdtempSync(path.join(root, 'one-')), env: {}, chat: { log: () => {} } });
    const conversationId = core.conversations.create('bench').id;
    core.messages.insert({ conversationId, role: 'user', content: 'Plan it' });
    const reply = core.messages.insert({ conversationId, role: 'assistant', content: 'Planning.' });
    return {
      core,
      ctx: { conversationId, agentId: 'main', signal: new AbortController().signal, messageId: reply.id },
    };
  };
  const app = open();
  const bare = open();
  // The list as the first call leaves it (all pending), written by the app itself, so both
  // sides start from the same rows; the floor then updates the row the call changed.
  const initial = JSON.stringify({ todoList: listAt(0).map((t) => ({ ...t, status: 'pending' })) });
  for (const side of [app, bare]) {
    const first = await side.core.tools.run('manage_todo_list', initial, side.ctx);
    if (!first.ok) throw new Error(first.content);
  }
  const bareDb = bare.core.db;
  const ids = (
    bareDb
      .prepare(
        'SELECT t.id FROM tasks t JOIN task_lists l ON l.id = t.list_id WHERE l.closed_at IS NULL ORDER BY t.position',
      )
      .all() as Array<{ id: number }>
  ).map((r) => r.id);
  const update = bareDb.prepare('UPDATE tasks SET status = ?, updated_at = ? WHERE id = ?');
  let appStep = 0;
  let bareStep = 0;
  const floor = bareDb.transaction((text: string, index: number) => {
    const { todoList } = JSON.parse(text) as { todoList: Item[] };
    update.run(todoList[index].status, Date.now(), ids[index]);
  });
  // Seed 001's design doing the same change: the call's list parsed, the file rewritten and fsynced.
  const json = jsonFileStore(fs.mkdtempSync(path.join(root, 'json-one-')), crypto.randomUUID());
  let jsonStep = 0;
  const sides = {
    json: () => json.replace((JSON.parse(calls[jsonStep++ % calls.length]) as { todoList: Item[] }).todoList),
    app: async () => {
      const result = await app.core.tools.run('manage_todo_list', calls[appStep++ % calls.length], app.ctx);
      if (!result.ok) throw new Error(result.content);
    },
    floor: () => {
      const i = bareStep++ % calls.length;
      floor(calls[i], i % TASKS);
    },
  };
  const floorName = 'bare transaction: JSON.parse + UPDATE of the changed row';
  try {
    // First the calls right after start-up (after whatever rows ran before in this
    // process), then the same once both sides are warm: the goal is the per-call cost.
    const cold = await interleave(sides, { rounds: RUNS, warmup: 10 });
    const warm = await interleave(sides, { rounds: RUNS, warmup: STEADY_WARMUP_CALLS });
    return [
      ratioRow(
        `manage_todo_list, 50 tasks, 1 task changed per call (WAL), steady state (after ${STEADY_WARMUP_CALLS} calls)`,
        warm.app,
        warm.floor,
        floorName,
        '≤ 3×',
      ),
      ratioRow(
        "  … its first calls in the process (V8 still compiling the app's side)",
        cold.app,
        cold.floor,
        floorName,
        '—',
      ),
      ratioRow(
        'manage_todo_list, 1 of 50 changed, shipped settings (WAL, synchronous=NORMAL), first calls (JIT warm-up included)',
        cold.app,
        cold.json,
        'JSON file rewritten + fsync (seed 001)',
        '< 1×',
      ),
      ratioRow('  … the same in steady state', warm.app, warm.json, 'JSON file rewritten + fsync (seed 001)', '< 1×'),
    ];
  } finally {
    app.core.close();
    bare.core.close();
  }
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
      const only = process.env.STEPWISE_BENCH_ONLY?.split(',');
      const rows: BenchRow[] = [];
      if (!only || only.includes('store')) rows.push(...(await storeComparison(root)));
      if (!only || only.includes('oneRow')) rows.push(...(await oneRowComparison(root)));
      if (!only || only.includes('latency')) rows.push(...(await eventLatency(root)));
      return rows;
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
