// Many open task lists written straight into a Stepwise database (as board.bench seeds
// them): `count` conversations "Project <i>", each with `tasksEach` tasks of mixed status.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/main/core/db/openDatabase';

const STATUSES = ['completed', 'in_progress', 'pending', 'pending', 'cancelled', 'pending'] as const;

export function seedShareLists(db: Db, count: number, tasksEach = 6, title = (i: number) => `Project ${i}`): void {
  const insertConversation = db.prepare(
    'INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)',
  );
  const insertList = db.prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, ?)');
  const insertTask = db.prepare(
    `INSERT INTO tasks (list_id, seq, title, status, owner, position, created_at, updated_at, completed_at)
     VALUES (?, ?, ?, ?, 'main', ?, ?, ?, ?)`,
  );
  const at = Date.now() - count * 1000;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      const when = at + i * 1000;
      insertConversation.run(id, title(i), when, when);
      const listId = Number(insertList.run(id, when).lastInsertRowid);
      for (let t = 0; t < tasksEach; t++) {
        const status = STATUSES[t % STATUSES.length];
        insertTask.run(
          listId,
          t + 1,
          `Task ${t + 1} of project ${i}`,
          status,
          t,
          when + t,
          when + t,
          status === 'completed' ? when : null,
        );
      }
    }
  })();
}
