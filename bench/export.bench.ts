// Exporting 1,000 tasks (10 conversations × 100 tasks, with descriptions, dependencies and
// two events each) in each format, from a real SQLite file; and a whole conversation of
// 1,000 tasks and 500 messages exported as JSON and imported back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/main/core/db/openDatabase';
import { createExportReader } from '../src/main/core/export/exportReader';
import { collectTasks, exportTasks } from '../src/main/core/export/tasksExport';
import { exportConversation } from '../src/main/core/export/exportModule';
import { parseConversationExport } from '../src/main/core/export/conversationImport';
import { writeImportedConversation } from '../src/main/core/export/conversationWrite';
import type { Db } from '../src/main/core/db/openDatabase';
import { createMessageRepo } from '../src/main/core/conversations/messageRepo';
import { kb, ms, time, type Bench, type BenchRow } from './benchKit';

const STATUSES = ['completed', 'completed', 'pending', 'pending', 'cancelled'] as const;

function seedConversation(db: Db, title: string, lists: number, tasksPerList: number, messages: number): string {
  const id = crypto.randomUUID();
  const at = Date.now();
  db.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
    id,
    title,
    at,
    at,
  );
  // Messages through the app's own writer: it links each to the one before (versions), which the import checks.
  const repo = createMessageRepo(db, () => at);
  for (let m = 0; m < messages; m++)
    repo.insert({
      conversationId: id,
      role: m % 2 ? 'assistant' : 'user',
      content: `Message ${m}: ${'lorem ipsum '.repeat(20)}`,
    });
  const task = db.prepare(
    `INSERT INTO tasks (list_id, seq, title, description, status, position, created_at, updated_at, completed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const dep = db.prepare('INSERT INTO task_deps (task_id, blocked_by_id) VALUES (?, ?)');
  const event = db.prepare(
    'INSERT INTO task_events (list_id, task_id, at, actor, kind, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (let l = 0; l < lists; l++) {
    const closed = l < lists - 1 ? at : null;
    const listId = Number(
      db.prepare('INSERT INTO task_lists (conversation_id, created_at, closed_at) VALUES (?, ?, ?)').run(id, at, closed)
        .lastInsertRowid,
    );
    let previous: number | null = null;
    for (let t = 1; t <= tasksPerList; t++) {
      const status = closed ? 'completed' : t === 3 ? 'in_progress' : STATUSES[t % STATUSES.length];
      const rowId = Number(
        task.run(
          listId,
          t,
          `Task ${t}: do the thing, "quoted" | piped`,
          `Details for ${t}.\nSecond line.`,
          status,
          t,
          at,
          at,
          status === 'completed' ? at : null,
        ).lastInsertRowid,
      );
      if (previous !== null && t % 5 === 0) dep.run(rowId, previous);
      event.run(listId, rowId, at, 'model', 'created', null, JSON.stringify({ id: t, title: `Task ${t}` }));
      event.run(listId, rowId, at, 'model', 'updated', '{"status":"pending"}', JSON.stringify({ status }));
      previous = rowId;
    }
  }
  return id;
}

const bench: Bench = {
  title: 'Export and import',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-export-'));
    // The database alone: export needs nothing else of the core.
    const core = openDatabase(dir);
    try {
      core.db.transaction(() => {
        for (let c = 0; c < 10; c++) seedConversation(core.db, `Conversation ${c}`, 1, 100, 0);
      })();
      const reader = createExportReader(core.db);
      const rows: BenchRow[] = [];

      const read = await time(() => collectTasks(reader, { scope: 'all' }, Date.now()));
      rows.push({
        case: '1,000 tasks read from SQLite (no rendering)',
        p50: ms(read.p50),
        p95: ms(read.p95),
        'tasks/s': Math.round(1000 / (read.p50 / 1000)),
        size: '',
      });

      for (const format of ['md', 'json', 'csv'] as const) {
        let size = 0;
        const t = await time(() => {
          size = exportTasks(reader, { format, scope: 'all' }, Date.now()).text.length;
        });
        rows.push({
          case: `1,000 tasks → ${format}`,
          p50: ms(t.p50),
          p95: ms(t.p95),
          'tasks/s': Math.round(1000 / (t.p50 / 1000)),
          size: kb(size),
        });
      }

      const big = core.db.transaction(() => seedConversation(core.db, 'Big conversation', 5, 200, 500))();
      let json = '';
      const exported = await time(
        () => {
          json = exportConversation(core.db, big, 'json', Date.now()).text;
        },
        { runs: 10 },
      );
      rows.push({
        case: 'conversation (1,000 tasks, 500 messages) → json',
        p50: ms(exported.p50),
        p95: ms(exported.p95),
        'tasks/s': Math.round(1000 / (exported.p50 / 1000)),
        size: kb(json.length),
      });
      const md = await time(() => exportConversation(core.db, big, 'md', Date.now()), { runs: 10 });
      rows.push({
        case: 'conversation (1,000 tasks, 500 messages) → md',
        p50: ms(md.p50),
        p95: ms(md.p95),
        'tasks/s': Math.round(1000 / (md.p50 / 1000)),
        size: '',
      });
      const imported = await time(() => writeImportedConversation(core.db, parseConversationExport(json), Date.now()), {
        runs: 10,
        warmup: 1,
      });
      rows.push({
        case: 'import that conversation (parse + check + write)',
        p50: ms(imported.p50),
        p95: ms(imported.p95),
        'tasks/s': Math.round(1000 / (imported.p50 / 1000)),
        size: '',
      });
      return rows;
    } finally {
      core.db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
