// Workers in SQLite. A worker's transcript is a child conversation (parent_id set),
// so it reuses the message store and disappears with its parent.
import { randomUUID } from 'node:crypto';
import type { Worker, WorkerStatus } from '../../../shared/agents';
import type { Db } from '../db/openDatabase';

interface WorkerRow {
  id: string;
  conversation_id: string;
  number: number;
  owner: string;
  task_seq: number | null;
  description: string;
  expected_output: string;
  status: WorkerStatus;
  result: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface StoredWorker {
  worker: Omit<Worker, 'activity' | 'needsInput'>;
  expectedOutput: string;
  result: string | null;
}

function toStored(row: WorkerRow): StoredWorker {
  return {
    worker: {
      id: row.id,
      conversationId: row.conversation_id,
      number: row.number,
      owner: row.owner,
      taskId: row.task_seq,
      description: row.description,
      status: row.status,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    },
    expectedOutput: row.expected_output,
    result: row.result,
  };
}

export function createWorkerRepo(db: Db, now: () => number = Date.now) {
  const nextNumber = db.prepare<[string], { n: number }>(
    'SELECT COALESCE(MAX(number), 0) + 1 AS n FROM workers WHERE conversation_id = ?',
  );
  const insertConversation = db.prepare(
    `INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source, parent_id)
     VALUES (?, ?, ?, ?, 0, 'auto', ?)`,
  );
  const insertWorker = db.prepare(
    `INSERT INTO workers (id, conversation_id, number, owner, task_seq, description, expected_output, status, created_at)
     VALUES (@id, @conversation_id, @number, @owner, @task_seq, @description, @expected_output, 'queued', @created_at)`,
  );
  const byId = db.prepare<[string], WorkerRow>('SELECT * FROM workers WHERE id = ?');
  const byConversation = db.prepare<[string], WorkerRow>('SELECT * FROM workers WHERE conversation_id = ? ORDER BY number');
  const setStatus = db.prepare('UPDATE workers SET status = ?, result = COALESCE(?, result), finished_at = ? WHERE id = ?');
  const abandon = db.prepare(
    "UPDATE workers SET status = 'stopped', finished_at = ? WHERE status IN ('queued', 'running')",
  );

  return {
    create(input: { conversationId: string; description: string; expectedOutput: string; taskSeq: number | null }): StoredWorker {
      return db.transaction(() => {
        const id = randomUUID();
        const number = nextNumber.get(input.conversationId)!.n;
        const at = now();
        const title = `Worker ${number}: ${input.description}`.slice(0, 200);
        insertConversation.run(id, title, at, at, input.conversationId);
        insertWorker.run({
          id,
          conversation_id: input.conversationId,
          number,
          owner: `worker-${number}`,
          task_seq: input.taskSeq,
          description: input.description,
          expected_output: input.expectedOutput,
          created_at: at,
        });
        return toStored(byId.get(id)!);
      })();
    },
    get(id: string): StoredWorker | undefined {
      const row = byId.get(id);
      return row ? toStored(row) : undefined;
    },
    list(conversationId: string): StoredWorker[] {
      return byConversation.all(conversationId).map(toStored);
    },
    setStatus(id: string, status: WorkerStatus, result: string | null = null): void {
      const finished = status === 'queued' || status === 'running' ? null : now();
      setStatus.run(status, result, finished, id);
    },
    /** Workers a previous process left running or queued cannot resume: mark them stopped. */
    abandonUnfinished(): number {
      return abandon.run(now()).changes;
    },
  };
}

export type WorkerRepo = ReturnType<typeof createWorkerRepo>;
