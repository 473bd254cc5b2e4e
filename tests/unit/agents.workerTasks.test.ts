// What a worker's end does to its tasks (workerEndOp), as a table over the real task
// service, and the hand-back of tasks a previous process left under running workers.
import { describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { createWorkerRepo } from '../../src/main/core/agents/workerRepo';
import { workerEndOp, type WorkerEnd } from '../../src/main/core/agents/workerTasks';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { handedBackLabel } from '../../src/shared/taskProgress';
import { workerCompletedMessage } from '../../src/shared/agents';
import { taskFixturePerTest } from '../support/taskFixture';
import { makeTempDir, removeDir } from '../support/tempDir';
import { plumbingFromLegacy } from '../../src/main/core/db/legacyMessages';
/** A worker's result read back as migration 24 reads old messages (db/legacyMessages.ts). */
function parseWorkerResult(content: string) {
  const payload = plumbingFromLegacy({ role: 'user', origin: 'worker', content });
  if (payload?.kind !== 'worker_result') return null;
  const { kind: _kind, ...fields } = payload;
  return fields;
}

const f = taskFixturePerTest();

const MODEL = { actor: 'model', owner: 'main', claims: false };
const WORKER = { actor: 'worker-1', owner: 'worker-1', claims: false };

/** Task 1 is the main agent's, task 2 the worker's (in progress), task 3 blocked by 1. */
function setUp(assignedStatus: 'in_progress' | 'completed' = 'in_progress') {
  const made = f.tasks.change(f.conversationId, MODEL, () => ({
    ok: true,
    value: {
      tasks: [
        {
          rowId: null,
          id: 1,
          title: 'Plan',
          description: '',
          activeForm: '',
          status: 'in_progress',
          owner: 'main',
          blockedBy: [],
          lastMessageId: null,
        },
        {
          rowId: null,
          id: 2,
          title: 'Count',
          description: '',
          activeForm: '',
          status: assignedStatus,
          owner: 'worker-1',
          blockedBy: [],
          lastMessageId: null,
        },
        {
          rowId: null,
          id: 3,
          title: 'Sum up',
          description: '',
          activeForm: '',
          status: 'pending',
          owner: 'worker-1',
          blockedBy: [1],
          lastMessageId: null,
        },
      ],
      value: null,
    },
  }));
  expect(made.ok).toBe(true);
}

describe('workerEndOp', () => {
  it.each<
    [
      WorkerEnd,
      number | null,
      Array<[number, string, string | null]>,
      { completed: number | null; handedBack: number[] },
    ]
  >([
    [
      'done',
      2,
      [
        [1, 'in_progress', null],
        [2, 'completed', null],
        [3, 'pending', null],
      ],
      { completed: 2, handedBack: [] },
    ],
    [
      'done',
      null,
      [
        [1, 'in_progress', null],
        [2, 'in_progress', 'unfinished'],
        [3, 'pending', null],
      ],
      { completed: null, handedBack: [2] },
    ],
    [
      'error',
      2,
      [
        [1, 'in_progress', null],
        [2, 'in_progress', 'failed'],
        [3, 'pending', null],
      ],
      { completed: null, handedBack: [2] },
    ],
    [
      'stopped',
      2,
      [
        [1, 'in_progress', null],
        [2, 'in_progress', 'stopped'],
        [3, 'pending', null],
      ],
      { completed: null, handedBack: [2] },
    ],
  ])('a worker that ends %s (task %s)', (ended, taskId, expected, outcome) => {
    setUp();
    const result = f.tasks.change(f.conversationId, WORKER, workerEndOp('worker-1', taskId, ended));
    expect(result.ok && result.value.value).toEqual(outcome);
    expect(f.list()!.tasks.map((t) => [t.id, t.status, t.handedBack ?? null])).toEqual(expected);
  });

  it('a task the worker completed itself counts as completed by it', () => {
    setUp('completed');
    const result = f.tasks.change(f.conversationId, WORKER, workerEndOp('worker-1', 2, 'done'));
    expect(result.ok && result.value.value).toEqual({ completed: 2, handedBack: [] });
  });

  it('a task it cannot complete (an unfinished blocker) is handed back instead', () => {
    setUp();
    expect(
      f.tasks.change(f.conversationId, WORKER, (s) => ({
        ok: true,
        value: {
          tasks: s.tasks.map((t) =>
            t.id === 2
              ? { ...t, status: 'pending' as const }
              : t.id === 3
                ? { ...t, status: 'in_progress' as const }
                : t,
          ),
          value: null,
        },
      })).ok,
    ).toBe(false);
    const result = f.tasks.change(f.conversationId, WORKER, workerEndOp('worker-1', 3, 'done'));
    expect(result.ok && result.value.value).toEqual({ completed: null, handedBack: [2] });
    expect(f.list()!.tasks.find((t) => t.id === 3)?.status).toBe('pending');
  });

  it('the mark says why, and any status or owner change clears it', () => {
    setUp();
    f.tasks.change(f.conversationId, WORKER, workerEndOp('worker-1', 2, 'error'));
    const task = f.list()!.tasks[1];
    expect(handedBackLabel(task)).toBe('Worker 1 failed; handed back');
    expect(handedBackLabel({ owner: 'worker-4', handedBack: 'stopped' })).toBe('Worker 4 was stopped; handed back');
    f.tasks.change(f.conversationId, MODEL, (s) => ({
      ok: true,
      value: { tasks: s.tasks.map((t) => (t.id === 2 ? { ...t, title: 'Count again' } : t)), value: null },
    }));
    expect(f.list()!.tasks[1].handedBack).toBe('failed');
    f.tasks.change(f.conversationId, MODEL, (s) => ({
      ok: true,
      value: { tasks: s.tasks.map((t) => (t.id === 2 ? { ...t, owner: 'worker-2' } : t)), value: null },
    }));
    expect(f.list()!.tasks[1].handedBack).toBeNull();
  });
});

describe('the completed result message', () => {
  it('reads back as worker 2 finishing task 2, with the answer and without the hint', () => {
    const text = workerCompletedMessage(2, 2, 'Nine apples.\n\n- north: 4\n- south: 5');
    expect(text).toBe(
      'Task 2 was completed by worker 2 with this result:\n\nNine apples.\n\n- north: 4\n- south: 5\n\nReopen it if the result is not enough.',
    );
    expect(parseWorkerResult(text)).toEqual({
      worker: 2,
      taskId: 2,
      verb: 'finished',
      body: 'Nine apples.\n\n- north: 4\n- south: 5',
    });
    expect(
      parseWorkerResult(
        `${text}\n\nTask 3 is handed back to you, still in progress: start a new worker for it, finish it yourself, or set it pending.`,
      )?.body,
    ).toBe(
      'Nine apples.\n\n- north: 4\n- south: 5\n\nTask 3 is handed back to you, still in progress: start a new worker for it, finish it yourself, or set it pending.',
    );
  });
});

describe('after a restart', () => {
  it('a worker left running hands its task back, marked stopped', async () => {
    const dataDir = makeTempDir('stepwise-restart-');
    try {
      const first = createNodeCore({ dataDir, env: {} });
      const created = await first.dispatch('conversations:create', {});
      if (!created.ok) throw new Error(created.error.message);
      const id = (created.value as { id: string }).id;
      first.close();
      // A worker row and its task as a crashed process would leave them.
      const { db } = openDatabase(dataDir);
      const worker = createWorkerRepo(db).create({
        conversationId: id,
        description: 'Count',
        expectedOutput: '',
        taskSeq: 1,
      });
      db.prepare("UPDATE workers SET status = 'running' WHERE id = ?").run(worker.worker.id);
      const list = Number(
        db.prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, 1)').run(id).lastInsertRowid,
      );
      db.prepare(
        "INSERT INTO tasks (list_id, seq, title, status, owner, position, created_at, updated_at) VALUES (?, 1, 'Count', 'in_progress', 'worker-1', 0, 1, 1)",
      ).run(list);
      db.close();

      const second = createNodeCore({ dataDir, env: {} });
      try {
        expect(second.workers.list(id).map((w) => w.status)).toEqual(['stopped']);
        expect(second.tasks.get(id)!.tasks.map((t) => [t.status, t.owner, t.handedBack])).toEqual([
          ['in_progress', 'worker-1', 'stopped'],
        ]);
      } finally {
        second.close();
      }
    } finally {
      removeDir(dataDir);
    }
  });
});
