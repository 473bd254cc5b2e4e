// Fixtures for export tests: a real core on a temp SQLite file. Conversations and
// messages go through the real repos; task lists are inserted with SQL that matches the
// schema (titles the task rules would refuse, like 10 kB ones, can only get in this way).
import type { Db } from '../../../src/main/core/db/openDatabase';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import type { FileDialogs } from '../../../src/main/core/export/exportModule';
import type { CallName, CallRequest, CallResponse, IpcResult } from '../../../src/shared/ipc';
import type { TaskStatus } from '../../../src/shared/tasks';

export const T0 = Date.UTC(2026, 4, 1, 9, 30);

export interface FixtureTask {
  seq: number;
  title: string;
  status?: TaskStatus;
  description?: string;
  activeForm?: string;
  owner?: string;
  blockedBy?: number[];
  lastMessageId?: number | null;
  events?: Array<{ actor: string; kind: string; before?: string | null; after?: string | null }>;
}

export function startCore(dataDir: string, options: { fileDialogs?: FileDialogs } = {}) {
  let clock = T0;
  const core = createNodeCore({ dataDir, env: {}, now: () => (clock += 1000), fileDialogs: options.fileDialogs });
  async function call<N extends CallName>(name: N, params: CallRequest<N>): Promise<CallResponse<N>> {
    const result = (await core.dispatch(name, params)) as IpcResult<CallResponse<N>>;
    if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
    return result.value;
  }
  async function fail(name: CallName, params: unknown): Promise<{ code: string; message: string }> {
    const result = await core.dispatch(name, params);
    if (result.ok) throw new Error(`${name} succeeded but was expected to fail`);
    return result.error;
  }
  return { core, db: core.db, call, fail, now: () => clock };
}

export type TestCore = ReturnType<typeof startCore>;

/** A conversation's export text, as the download the export call answers with. */
export async function exportedText(app: TestCore, conversationId: string, format: 'json' | 'md'): Promise<string> {
  const result = await app.call('export:conversation', { conversationId, format });
  if (result.kind !== 'download') throw new Error(`expected a download, got ${result.kind}`);
  return result.text;
}

/** Inserts a task list with its tasks, dependencies and events; returns the list's row id. */
export function insertList(
  db: Db,
  conversationId: string,
  list: {
    createdAt?: number;
    closedAt?: number | null;
    tasks: FixtureTask[];
    listEvents?: Array<{ kind: string; actor?: string }>;
  },
): number {
  return db.transaction(() => {
    const createdAt = list.createdAt ?? T0;
    const listId = Number(
      db
        .prepare('INSERT INTO task_lists (conversation_id, created_at, closed_at) VALUES (?, ?, ?)')
        .run(conversationId, createdAt, list.closedAt ?? null).lastInsertRowid,
    );
    const insertTask = db.prepare(
      `INSERT INTO tasks (list_id, seq, title, description, active_form, status, owner, position, created_at, updated_at, completed_at, last_message_id)
       VALUES (@list_id, @seq, @title, @description, @active_form, @status, @owner, @position, @created_at, @updated_at, @completed_at, @last_message_id)`,
    );
    const rowIds = new Map<number, number>();
    list.tasks.forEach((task, position) => {
      const status = task.status ?? 'pending';
      const info = insertTask.run({
        list_id: listId,
        seq: task.seq,
        title: task.title,
        description: task.description ?? '',
        active_form: task.activeForm ?? '',
        status,
        owner: task.owner ?? 'main',
        position,
        created_at: createdAt + task.seq * 1000,
        updated_at: createdAt + task.seq * 2000,
        completed_at: status === 'completed' ? createdAt + task.seq * 3000 : null,
        last_message_id: task.lastMessageId ?? null,
      });
      rowIds.set(task.seq, Number(info.lastInsertRowid));
    });
    const insertEvent = db.prepare(
      'INSERT INTO task_events (list_id, task_id, at, actor, kind, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const task of list.tasks) {
      for (const blocker of task.blockedBy ?? []) {
        db.prepare('INSERT INTO task_deps (task_id, blocked_by_id) VALUES (?, ?)').run(
          rowIds.get(task.seq),
          rowIds.get(blocker),
        );
      }
      for (const event of task.events ?? [{ actor: 'model', kind: 'created', after: task.title }]) {
        insertEvent.run(
          listId,
          rowIds.get(task.seq),
          createdAt + task.seq * 1000,
          event.actor,
          event.kind,
          event.before ?? null,
          event.after ?? null,
        );
      }
    }
    for (const event of list.listEvents ?? []) {
      insertEvent.run(listId, null, createdAt + 60_000, event.actor ?? 'user', event.kind, null, null);
    }
    return listId;
  })();
}

/** The tasks of the example: 2 of 5 done (the cancelled one does not count). */
export const RELEASE_TASKS: FixtureTask[] = [
  { seq: 1, title: 'Set up project structure', status: 'completed' },
  { seq: 2, title: 'Create data models', status: 'completed', description: 'User, Task and List.\nWith zod schemas.' },
  { seq: 3, title: 'Build UI widget', status: 'in_progress', activeForm: 'Building UI widget' },
  { seq: 4, title: 'Write tests', status: 'pending', blockedBy: [3] },
  { seq: 5, title: 'Old idea', status: 'cancelled' },
  { seq: 6, title: 'Ship it', status: 'pending', owner: 'worker-1', blockedBy: [1] },
];

/** A file dialog stand-in that answers with fixed paths, recording what main asked for. */
export function scriptedDialogs(answers: { save?: string | null; open?: string | null }) {
  const asked: Array<{ kind: 'save' | 'open'; defaultName?: string; extensions: string[] }> = [];
  const dialogs: FileDialogs = {
    save: async (defaultName, filters) => {
      asked.push({ kind: 'save', defaultName, extensions: filters.flatMap((f) => f.extensions) });
      return answers.save ?? null;
    },
    open: async (filters) => {
      asked.push({ kind: 'open', extensions: filters.flatMap((f) => f.extensions) });
      return answers.open ?? null;
    },
  };
  return { dialogs, asked };
}

/** Every row of every table, to show that a refused or failed call changed nothing. */
export function dumpDatabase(db: Db): Record<string, unknown[]> {
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((t) => t.name);
  return Object.fromEntries(tables.map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).raw().all()]));
}
