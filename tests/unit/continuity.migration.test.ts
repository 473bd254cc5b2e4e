// Migration 16 (task continuity, task lists per branch) on a database from the last
// release (schema 15): an open list stays open and unparked, nothing reads as stopped or
// interrupted, and the list then follows its branch like any new one.
import { toDisposable } from '../../src/shared/event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { createEventBus } from '../../src/main/core/ipc/eventBus';
import { createTaskService } from '../../src/main/core/tasks/taskService';
import { createBranchLists } from '../../src/main/core/tasks/branchLists';
import { createContinuity } from '../../src/main/core/continuity/continuityModule';
import { makeTempDir, removeDir } from '../support/tempDir';

const A = '11111111-1111-4111-8111-111111111111';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

it('keeps the open list of a database from the last release open, on the branch it was made on', () => {
  const old = openDatabase(dir, { targetVersion: 15 }).db;
  old.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, 0, 0)').run(A, 'Trip');
  const message = old.prepare(
    'INSERT INTO messages (conversation_id, role, content, created_at, parent_id) VALUES (?, ?, ?, 0, ?)',
  );
  const q1 = Number(message.run(A, 'user', 'Plan the trip', null).lastInsertRowid);
  message.run(A, 'assistant', 'Planned.', q1);
  const list = Number(
    old.prepare('INSERT INTO task_lists (conversation_id, created_at, closed_at) VALUES (?, 0, NULL)').run(A)
      .lastInsertRowid,
  );
  old
    .prepare(
      `INSERT INTO tasks (list_id, seq, title, description, active_form, status, owner, position, created_at, updated_at)
     VALUES (?, 1, 'Pack', '', '', 'in_progress', 'main', 0, 0, 0)`,
    )
    .run(list);
  old.close();

  const { db } = openDatabase(dir);
  try {
    expect(db.prepare('SELECT closed_at, parked_on FROM task_lists').all()).toEqual([
      { closed_at: null, parked_on: null },
    ]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM task_snapshots').get()).toEqual({ n: 0 });

    const bus = createEventBus();
    const tasks = createTaskService({ db, bus });
    const continuity = createContinuity({
      db,
      bus,
      chat: {
        onTurnEnd: () => toDisposable(() => {}),
        post: () => {
          throw new Error('not sent');
        },
        isRunning: () => false,
      },
      tasks,
      autopilotOn: () => false,
    });
    expect(continuity.view(A)).toEqual({ conversationId: A, kind: null });
    expect(tasks.get(A)!.tasks.map((t) => t.title)).toEqual(['Pack']);

    // Its branch left and shown again, the legacy list comes back with it.
    const branches = createBranchLists({ db, bus, tasks });
    db.transaction(() => branches.leave(A, q1))();
    expect(tasks.get(A)).toBeNull();
    db.transaction(() => branches.enter(A, q1))();
    expect(tasks.get(A)!.tasks.map((t) => [t.title, t.status])).toEqual([['Pack', 'in_progress']]);
    continuity.dispose();
  } finally {
    db.close();
  }
});
