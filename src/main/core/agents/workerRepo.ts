// Workers in SQLite. A worker's transcript is a child conversation (parent_id set),
// so it reuses the message store and disappears with its parent.
import { randomUUID } from 'node:crypto';
import type { Worker, WorkerStatus } from '../../../shared/agents';
import type { Db } from '../db/openDatabase';
import { conversationInserter } from '../conversations/conversationRepo';
import type { Row } from '../db/tables';

export type WorkerRow = Row<'workers'>;

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

/** The one INSERT for worker rows (new workers and imported ones). */
export function workerInserter(db: Db): (row: WorkerRow) => void {
  const insert = db.prepare(
    `INSERT INTO workers (id, conversation_id, number, owner, task_seq, description, expected_output, status, result, created_at, finished_at)
     VALUES (@id, @conversation_id, @number, @owner, @task_seq, @description, @expected_output, @status, @result, @created_at, @finished_at)`,
  );
  return (row) => void insert.run(row);
}

export function createWorkerRepo(db: Db, now: () => number = Date.now) {
  const nextNumber = db.prepare<[string], { n: number }>(
    'SELECT COALESCE(MAX(number), 0) + 1 AS n FROM workers WHERE conversation_id = ?',
  );
  const insertConversation = conversationInserter(db);
  const insertWorker = workerInserter(db);
  const byId = db.prepare<[string], WorkerRow>('SELECT * FROM workers WHERE id = ?');
  const byConversation = db.prepare<[string], WorkerRow>(
    'SELECT * FROM workers WHERE conversation_id = ? ORDER BY number',
  );
  const setStatus = db.prepare(
    'UPDATE workers SET status = ?, result = COALESCE(?, result), finished_at = ? WHERE id = ?',
  );
  const unfinished = db.prepare<[], { conversation_id: string; owner: string }>(
    "SELECT conversation_id, owner FROM workers WHERE status IN ('queued', 'running')",
  );
  const abandon = db.prepare(
    "UPDATE workers SET status = 'stopped', finished_at = ? WHERE status IN ('queued', 'running')",
  );

  return {
    create(input: {
      conversationId: string;
      description: string;
      expectedOutput: string;
      taskSeq: number | null;
    }): StoredWorker {
      return db.transaction(() => {
        const id = randomUUID();
        const number = nextNumber.get(input.conversationId)!.n;
        const at = now();
        const title = `Worker ${number}: ${input.description}`.slice(0, 200);
        insertConversation({
          id,
          title,
          created_at: at,
          updated_at: at,
          pinned: 0,
          title_source: 'auto',
          parent_id: input.conversationId,
          autopilot: null,
        });
        insertWorker({
          id,
          conversation_id: input.conversationId,
          number,
          owner: `worker-${number}`,
          task_seq: input.taskSeq,
          description: input.description,
          expected_output: input.expectedOutput,
          status: 'queued',
          result: null,
          created_at: at,
          finished_at: null,
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
    /** Workers a previous process left running or queued cannot resume: mark them stopped; returns them. */
    abandonUnfinished(): Array<{ conversationId: string; owner: string }> {
      return db.transaction(() => {
        const left = unfinished.all().map((r) => ({ conversationId: r.conversation_id, owner: r.owner }));
        abandon.run(now());
        return left;
      })();
    },
  };
}

export type WorkerRepo = ReturnType<typeof createWorkerRepo>;
