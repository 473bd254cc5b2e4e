// Conversation export (JSON, Markdown) and import: the round trip through the real task
// service, message and worker repos; refusals that name their reason and leave the
// database exactly as it was; the desktop open dialog and the browser host's file text.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkerRepo } from '../../../src/main/core/agents/workerRepo';
import { createOp, deleteOp, fullListOp, updateOp } from '../../../src/main/core/tasks/taskOps';
import { agentWho, createTaskService, USER } from '../../../src/main/core/tasks/taskService';
import { createLedgerStore } from '../../../src/main/core/ledger/ledgerStore';
import { ConversationExport, ConversationExportV1 } from '../../../src/shared/exportFormat';
import { IMPORT_MESSAGES_MAX } from '../../../src/main/core/export/conversationImport';
import { MESSAGE_MAX, TITLE_MAX } from '../../../src/shared/domain';
import { TASK_TITLE_MAX } from '../../../src/shared/tasks';
import type { EventName } from '../../../src/shared/ipc';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { dumpDatabase, exportedText, scriptedDialogs, startCore, T0, type TestCore } from './exportFixtures';
import { headings, listItems, parseGfm, textOf, walk } from './markdownTree';

let dir: string;
let app: TestCore;
let conversationId: string;

/** A conversation as Stepwise really makes one: messages with tool calls, two task lists, a worker. */
async function buildConversation(core: TestCore): Promise<string> {
  const { core: c, db } = core;
  const id = (await core.call('conversations:create', { title: 'Plan the launch' })).id;
  const tasks = createTaskService({ db, bus: c.bus, now: core.now });
  const model = agentWho('main');
  const ok = <T extends { ok: boolean }>(result: T) => {
    if (!result.ok) throw new Error(`fixture step failed: ${JSON.stringify(result)}`);
    return result;
  };

  c.messages.insert({ conversationId: id, role: 'user', content: 'Plan the launch, step by step.' });
  const call = { id: 'call_1', name: 'manage_todo_list', arguments: '{"todoList":[{"id":1,"title":"Draft"}]}' };
  c.messages.insert({
    conversationId: id,
    role: 'assistant',
    content: '',
    toolCalls: [call, { id: 'call_2', name: 'current_time', arguments: '{}' }],
  });
  ok(
    tasks.change(
      id,
      model,
      fullListOp(
        [
          { id: 1, title: 'Draft the announcement', status: 'completed' },
          { id: 2, title: 'Book the venue', status: 'in_progress', activeForm: 'Booking the venue' },
          { id: 3, title: 'Send invites', status: 'pending', description: 'Everyone on the list.\nTwice.' },
          { id: 4, title: 'Scrap this', status: 'pending' },
        ],
        model,
      ),
    ),
  );
  ok(tasks.change(id, model, updateOp({ taskId: 3, addBlockedBy: [2] }, model)));
  ok(tasks.change(id, USER, deleteOp(4)));
  c.messages.insert({
    conversationId: id,
    role: 'tool',
    content: 'Task list updated: 1/3 completed\nmore detail',
    toolCallId: 'call_1',
    toolName: 'manage_todo_list',
  });
  const timeResult = c.messages.insert({
    conversationId: id,
    role: 'tool',
    content: '2026-05-01T09:30:00Z',
    toolCallId: 'call_2',
    toolName: 'current_time',
  });
  c.messages.insert({
    conversationId: id,
    role: 'assistant',
    content: 'Here is code:\n```ts\nconst unclosed = true;',
    reasoning: { text: 'They want code.\n\nShow <b>one</b> line.', durationMs: 1200 },
  });
  tasks.close(id, USER, 'clear-command');

  c.messages.insert({ conversationId: id, role: 'user', content: 'Next: the party.' });
  ok(tasks.change(id, model, createOp({ title: 'Order cake' }, model, { newListWhenFinished: true })));
  ok(tasks.change(id, model, createOp({ title: 'Decorate', blockedBy: [1] }, model, { newListWhenFinished: true })));
  ok(tasks.change(id, model, updateOp({ taskId: 1, status: 'completed' }, model)));
  c.messages.insert({
    conversationId: id,
    role: 'assistant',
    content: 'Failed',
    status: 'error',
    error: 'Rate limited (429)',
  });

  const workers = createWorkerRepo(db, core.now);
  const worker = workers.create({
    conversationId: id,
    description: 'Find a bakery',
    expectedOutput: 'A name and a price',
    taskSeq: 1,
  });
  c.messages.insert({ conversationId: worker.worker.id, role: 'user', content: 'Find a bakery', origin: 'worker' });
  const workerReply = c.messages.insert({
    conversationId: worker.worker.id,
    role: 'assistant',
    content: 'Bakery Lisboa, 30 EUR',
  });
  workers.setStatus(worker.worker.id, 'done', 'Bakery Lisboa, 30 EUR');
  ok(
    tasks.change(
      id,
      agentWho(worker.worker.owner),
      updateOp({ taskId: 2, status: 'in_progress' }, agentWho(worker.worker.owner)),
    ),
  );

  // The ledger: a main-agent call during list 1's task 1, a worker's call during list 2's task 2.
  const taskRow = (listIndex: number, seq: number) =>
    (
      db
        .prepare(
          'SELECT t.id FROM tasks t JOIN task_lists l ON l.id = t.list_id WHERE l.conversation_id = ? AND t.seq = ? ORDER BY l.id',
        )
        .all(id, seq) as Array<{ id: number }>
    )[listIndex].id;
  const ledger = createLedgerStore(db);
  const base = { conversation_id: id, started_at: T0 + 5000, ended_at: T0 + 6000 };
  ledger.insert({
    ...base,
    transcript_id: id,
    task_id: taskRow(0, 1),
    agent_id: 'main',
    tool_call_id: 'call_2',
    message_id: timeResult.id,
    name: 'current_time',
    arguments: '{"timeZone":"UTC","apiKey":"sk-live-0123456789abcdef"}',
    outcome: 'ok',
    result: timeResult.content,
  });
  ledger.insert({
    ...base,
    transcript_id: worker.worker.id,
    task_id: taskRow(1, 2),
    agent_id: worker.worker.owner,
    tool_call_id: 'call_w1',
    message_id: workerReply.id,
    name: 'search',
    arguments: '{"query":"bakery"}',
    outcome: 'denied',
    result: 'The user denied this call.',
  });
  return id;
}

const exportJson = (id: string) => exportedText(app, id, 'json');

function recordEvents(core: TestCore) {
  const seen: Array<{ event: EventName; payload: unknown }> = [];
  core.core.bus.subscribe((event, payload) => seen.push({ event, payload }));
  return seen;
}

beforeEach(async () => {
  dir = makeTempDir('stepwise-import-');
  app = startCore(path.join(dir, 'data'));
  conversationId = await buildConversation(app);
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

/** A file as written before plan review: no `planReview`, no `planRevisions`. */
function withoutPlans(v: Record<string, unknown>): Record<string, unknown> {
  const { planRevisions: _revisions, ...rest } = v;
  const { planReview: _mode, ...conversation } = v.conversation as Record<string, unknown>;
  return { ...rest, conversation };
}

describe('conversation JSON export', () => {
  it('is complete: every message column, both lists with tasks, dependencies and events, the worker', async () => {
    const data = ConversationExport.parse(JSON.parse(await exportJson(conversationId)));
    expect(data).toMatchObject({
      format: 'stepwise.conversation',
      version: 2,
      conversation: { id: conversationId, title: 'Plan the launch', titleSource: 'user', pinned: false },
    });
    expect(data.messages.map((m) => [m.id, m.role, m.status])).toEqual([
      [1, 'user', 'complete'],
      [2, 'assistant', 'complete'],
      [3, 'tool', 'complete'],
      [4, 'tool', 'complete'],
      [5, 'assistant', 'complete'],
      [6, 'user', 'complete'],
      [7, 'assistant', 'error'],
    ]);
    expect(data.messages[1].toolCalls).toEqual([
      { id: 'call_1', name: 'manage_todo_list', arguments: '{"todoList":[{"id":1,"title":"Draft"}]}' },
      { id: 'call_2', name: 'current_time', arguments: '{}' },
    ]);
    expect(data.messages[2]).toMatchObject({ toolCallId: 'call_1', toolName: 'manage_todo_list' });
    expect(data.messages[6]).toMatchObject({ error: 'Rate limited (429)' });
    expect(data.messages[4].reasoning).toEqual({ text: 'They want code.\n\nShow <b>one</b> line.', durationMs: 1200 });
    expect(data.messages[0].reasoning).toBeNull();

    expect(data.taskLists.map((l) => [l.id, l.closedAt === null])).toEqual([
      [1, false],
      [2, true],
    ]);
    const [first, second] = data.taskLists;
    expect(first.tasks.map((t) => [t.id, t.title, t.status, t.blockedBy])).toEqual([
      [1, 'Draft the announcement', 'completed', []],
      [2, 'Book the venue', 'in_progress', []],
      [3, 'Send invites', 'pending', [2]],
    ]);
    // The deleted task's history stays with the list, as does the list's closing.
    expect(first.events.map((e) => [e.kind, e.actor])).toEqual([
      ['created', 'model'],
      ['deleted', 'user'],
      ['closed', 'user'],
    ]);
    expect(second.tasks.map((t) => [t.id, t.status, t.owner, t.blockedBy])).toEqual([
      [1, 'completed', 'main', []],
      [2, 'in_progress', 'worker-1', [1]],
    ]);
    // Tasks point at the message (by its number in the file) where they last changed.
    expect(second.tasks[0].lastMessageId).toBe(5);
    const ids = data.taskLists
      .flatMap((l) => [...l.events, ...l.tasks.flatMap((t) => t.events)])
      .map((e) => e.id)
      .sort((a, b) => a - b);
    expect(ids).toEqual(ids.map((_, i) => i + 1));

    expect(data.workers).toHaveLength(1);
    expect(data.workers[0]).toMatchObject({
      number: 1,
      owner: 'worker-1',
      taskId: 1,
      status: 'done',
      result: 'Bakery Lisboa, 30 EUR',
      expectedOutput: 'A name and a price',
    });
    expect(data.workers[0].messages.map((m) => [m.id, m.role, m.origin])).toEqual([
      [8, 'user', 'worker'],
      [9, 'assistant', 'system'],
    ]);

    // The ledger: each call under its task, pointing at its result by number, secrets masked.
    expect(first.tasks.map((t) => t.toolCalls.length)).toEqual([1, 0, 0]);
    expect(first.tasks[0].toolCalls).toEqual([
      {
        name: 'current_time',
        arguments: '{"timeZone":"UTC","apiKey":"••••"}',
        outcome: 'ok',
        startedAt: new Date(T0 + 5000).toISOString(),
        endedAt: new Date(T0 + 6000).toISOString(),
        result: '2026-05-01T09:30:00Z',
        agent: 'main',
        toolCallId: 'call_2',
        messageId: 4,
      },
    ]);
    expect(second.tasks[1].toolCalls).toEqual([
      expect.objectContaining({
        name: 'search',
        outcome: 'denied',
        agent: 'worker-1',
        toolCallId: 'call_w1',
        messageId: 9,
      }),
    ]);
    expect(JSON.stringify(data)).not.toContain('sk-live-0123456789abcdef');
  });
});

describe('import', () => {
  it('export → import → export gives the same JSON apart from the id and times of the import', async () => {
    const seen = recordEvents(app);
    const before = await exportJson(conversationId);
    const imported = await app.call('import:conversation', { content: before });
    if (imported.kind !== 'imported') throw new Error('not imported');
    expect(imported.title).toBe('Plan the launch');
    expect(imported.conversationId).not.toBe(conversationId);
    expect(seen).toContainEqual({
      event: 'conversations:changed',
      payload: expect.objectContaining({
        id: imported.conversationId,
        kind: 'created',
        conversation: expect.objectContaining({ title: 'Plan the launch' }),
      }),
    });

    const after = await exportJson(imported.conversationId);
    const a = ConversationExport.parse(JSON.parse(before));
    const b = ConversationExport.parse(JSON.parse(after));
    const strip = (d: typeof a) => ({
      ...d,
      exportedAt: '',
      conversation: { ...d.conversation, id: '', updatedAt: '' },
    });
    expect(strip(b)).toEqual(strip(a));
    expect(b.conversation.id).toBe(imported.conversationId);

    // The imported conversation is a normal one: in the sidebar with its badge, and the
    // task module sees the same open list (ids, statuses, blockers, owners).
    const listed = await app.call('conversations:list', { query: 'Plan the launch' });
    expect(listed.items.map((c) => c.id).sort()).toEqual([conversationId, imported.conversationId].sort());
    expect(listed.items.map((c) => c.tasks)).toEqual([
      { done: 1, total: 2 },
      { done: 1, total: 2 },
    ]);
    const original = (await app.call('tasks:get', { conversationId })).list!;
    const copy = (await app.call('tasks:get', { conversationId: imported.conversationId })).list!;
    const comparable = (list: typeof original) => list.tasks.map(({ lastMessageId: _m, ...task }) => task);
    expect(comparable(copy)).toEqual(comparable(original));
    expect(copy.tasks.map((t) => t.openBlockers)).toEqual([[], []]);
    // History that came with the file is not news for the model.
    const mark = app.db
      .prepare('SELECT event_id FROM task_notice_marks WHERE conversation_id = ?')
      .get(imported.conversationId) as { event_id: number };
    const newest = app.db
      .prepare(
        'SELECT MAX(e.id) AS id FROM task_events e JOIN task_lists l ON l.id = e.list_id WHERE l.conversation_id = ?',
      )
      .get(imported.conversationId) as { id: number };
    expect(mark.event_id).toBe(newest.id);
    // …and it can change it like any other list.
    const updated = await app.call('tasks:update', {
      conversationId: imported.conversationId,
      taskId: 2,
      patch: { status: 'completed' },
    });
    expect(updated.list?.tasks.map((t) => t.status)).toEqual(['completed', 'completed']);
    const workerCount = app.db
      .prepare('SELECT COUNT(*) AS n FROM workers WHERE conversation_id = ?')
      .get(imported.conversationId) as { n: number };
    expect(workerCount.n).toBe(1);
  });

  it('imports a version 1 file (from before the task ledger): same conversation, tasks without tool calls', async () => {
    const v2 = JSON.parse(await exportJson(conversationId)) as ConversationExport;
    // Version 1 files are from before plan review too.
    const v1 = {
      ...(withoutPlans(v2) as ConversationExport),
      version: 1,
      taskLists: v2.taskLists.map((list) => ({
        ...list,
        tasks: list.tasks.map(({ toolCalls: _drop, ...task }) => task),
      })),
    };
    expect(ConversationExportV1.safeParse(v1).success).toBe(true);
    const imported = await app.call('import:conversation', { content: JSON.stringify(v1) });
    if (imported.kind !== 'imported') throw new Error('not imported');
    const again = ConversationExport.parse(JSON.parse(await exportJson(imported.conversationId)));
    expect(again.version).toBe(2);
    expect(again.taskLists.flatMap((l) => l.tasks.map((t) => t.toolCalls))).toEqual([[], [], [], [], []]);
    const withoutLedger = (d: ConversationExport) => ({
      ...d,
      exportedAt: '',
      conversation: { ...d.conversation, id: '', updatedAt: '', planReview: undefined },
      planRevisions: undefined,
      taskLists: d.taskLists.map((l) => ({ ...l, tasks: l.tasks.map((t) => ({ ...t, toolCalls: [] })) })),
    });
    expect(withoutLedger(again)).toEqual(withoutLedger(v2));
    const rows = app.db
      .prepare('SELECT COUNT(*) AS n FROM tool_calls WHERE conversation_id = ?')
      .get(imported.conversationId) as { n: number };
    expect(rows.n).toBe(0);
  });

  it('imports the ledger: each call linked to its task and to its card in the right transcript', async () => {
    const imported = await app.call('import:conversation', { content: await exportJson(conversationId) });
    if (imported.kind !== 'imported') throw new Error('not imported');
    const open = await app.call('ledger:calls', { conversationId: imported.conversationId, taskId: 2 });
    const [worker] = await app.call('workers:list', { conversationId: imported.conversationId });
    expect(open.calls.map((c) => [c.name, c.outcome, c.agentId, c.transcriptId])).toEqual([
      ['search', 'denied', 'worker-1', worker.id],
    ]);
    expect(app.core.messages.get(open.calls[0].messageId!)).toMatchObject({
      conversationId: worker.id,
      content: 'Bakery Lisboa, 30 EUR',
    });
    expect(await app.call('ledger:counts', { conversationId: imported.conversationId })).toMatchObject({
      counts: [{ taskId: 2, count: 1 }],
    });
  });

  it('imports the same file twice as two conversations', async () => {
    const text = await exportJson(conversationId);
    const one = await app.call('import:conversation', { content: text });
    const two = await app.call('import:conversation', { content: text });
    expect(one.kind === 'imported' && two.kind === 'imported' && one.conversationId !== two.conversationId).toBe(true);
    const count = app.db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE parent_id IS NULL').get() as {
      n: number;
    };
    expect(count.n).toBe(3);
  });

  it('marks a reply that was still streaming as interrupted, and a running worker as stopped', async () => {
    const data = JSON.parse(await exportJson(conversationId));
    data.messages[6].status = 'streaming';
    data.workers[0].status = 'running';
    data.workers[0].finishedAt = null;
    const imported = await app.call('import:conversation', { content: JSON.stringify(data) });
    if (imported.kind !== 'imported') throw new Error('not imported');
    const again = ConversationExport.parse(JSON.parse(await exportJson(imported.conversationId)));
    expect(again.messages[6].status).toBe('interrupted');
    expect(again.workers[0].status).toBe('stopped');
    expect(again.workers[0].finishedAt).not.toBeNull();
  });

  const refusals: Array<{ name: string; content: (valid: Record<string, unknown>) => string; message: RegExp }> = [
    {
      name: 'not JSON',
      content: () => '# My notes\n- [x] done',
      message: /^This file is not a Stepwise conversation export: it is not JSON/,
    },
    {
      name: 'a JSON array',
      content: () => '[1, 2]',
      message: /not a Stepwise conversation export: it is not a JSON object/,
    },
    {
      name: 'JSON without a format',
      content: () => '{"messages": []}',
      message: /not a Stepwise conversation export: it has no "format": "stepwise.conversation" field/,
    },
    {
      name: 'another format',
      content: (v) => JSON.stringify({ ...v, format: 'chatgpt.export' }),
      message: /not a Stepwise conversation export: its format is "chatgpt.export"/,
    },
    {
      name: 'a task list export',
      content: () => JSON.stringify({ format: 'stepwise.tasks', version: 1, conversations: [] }),
      message: /it is a task list export \(stepwise.tasks\)/,
    },
    {
      name: 'a newer version',
      content: (v) => JSON.stringify({ ...v, version: 3 }),
      message:
        /exported by a newer version of Stepwise \(format version 3; this version reads up to 2\)\. Update Stepwise/,
    },
    {
      name: 'a version 1 file with tool calls',
      content: (v) => JSON.stringify({ ...withoutPlans(v), version: 1 }),
      message: /malformed: taskLists\.0\.tasks\.0: Unrecognized key: "toolCalls"/,
    },
    {
      name: 'a tool call pointing at a missing message',
      content: (v) =>
        JSON.stringify(
          withTask(v, 0, 0, {
            toolCalls: [
              {
                name: 'x',
                arguments: '{}',
                outcome: 'ok',
                startedAt: '2026-05-01T09:30:00.000Z',
                endedAt: '2026-05-01T09:30:00.000Z',
                result: '',
                agent: 'main',
                toolCallId: 'c',
                messageId: 99,
              },
            ],
          }),
        ),
      message: /malformed: taskLists\.0: a tool call of task 1 refers to message 99, which is not in the file/,
    },
    {
      name: 'a version that is not a number',
      content: (v) => JSON.stringify({ ...v, version: '1' }),
      message: /malformed: "version" must be a whole number from 1 \(got "1"\)/,
    },
    {
      name: 'an unknown role',
      content: (v) => JSON.stringify(withMessage(v, 0, { role: 'robot' })),
      message: /malformed: messages\.0\.role:/,
    },
    {
      name: 'a missing field',
      content: (v) => JSON.stringify({ ...v, taskLists: undefined }),
      message: /malformed: taskLists:/,
    },
    {
      name: 'a bad time',
      content: (v) => JSON.stringify(withMessage(v, 1, { createdAt: 'yesterday' })),
      message: /malformed: messages\.1\.createdAt: must be an ISO 8601 UTC time/,
    },
    {
      name: 'a blocker not in the list',
      content: (v) => JSON.stringify(withTask(v, 0, 2, { blockedBy: [9] })),
      message: /malformed: taskLists\.0: task 3 is blocked by 9, not in the list/,
    },
    {
      name: 'a dependency cycle',
      content: (v) => JSON.stringify(withTask(v, 0, 1, { blockedBy: [3] })),
      message: /malformed: taskLists\.0: dependencies form a cycle \(2 → 3 → 2\)/,
    },
    {
      name: 'a plan revision of a list not in the file',
      content: (v) =>
        JSON.stringify({
          ...v,
          planRevisions: [
            {
              list: 9,
              revision: 1,
              tasks: [],
              comments: { general: '', tasks: [] },
              approvedAt: null,
              createdAt: '2026-05-01T09:30:00.000Z',
            },
          ],
        }),
      message: /malformed: planRevisions\.0: list 9 is not in taskLists/,
    },
    {
      name: 'two open lists',
      content: (v) => JSON.stringify(withList(v, 0, { closedAt: null })),
      message: /malformed: 2 task lists are open/,
    },
    {
      name: 'a dangling message reference',
      content: (v) => JSON.stringify(withTask(v, 1, 0, { lastMessageId: 99 })),
      message: /malformed: taskLists\.1: task 1 refers to message 99, which is not in the file/,
    },
    {
      name: 'two tasks in progress for one owner',
      content: (v) => JSON.stringify(withTask(v, 0, 2, { status: 'in_progress' })),
      message: /malformed: taskLists\.0: 2 tasks of owner main are in_progress/,
    },
    // The app's own limits, named with the value found.
    {
      name: 'an oversized title',
      content: (v) =>
        JSON.stringify({ ...v, conversation: { ...(v.conversation as Json), title: 'T'.repeat(TITLE_MAX + 50) } }),
      message: new RegExp(
        `^This conversation export is over Stepwise's limits: the title is ${TITLE_MAX + 50} characters \\(at most ${TITLE_MAX}\\)\\.`,
      ),
    },
    {
      name: 'an oversized task title',
      content: (v) => JSON.stringify(withTask(v, 0, 0, { title: 'x'.repeat(TASK_TITLE_MAX + 1) })),
      message: new RegExp(
        `over Stepwise's limits: taskLists\\.0: task 1's title is ${TASK_TITLE_MAX + 1} characters \\(at most ${TASK_TITLE_MAX}\\)`,
      ),
    },
    {
      name: 'an oversized message from the user',
      content: (v) => JSON.stringify(withMessage(v, 0, { content: 'm'.repeat(MESSAGE_MAX + 1) })),
      message: new RegExp(
        `over Stepwise's limits: message 1 \\(from the user\\) is ${MESSAGE_MAX + 1} characters \\(at most ${MESSAGE_MAX}\\)`,
      ),
    },
    {
      name: 'too many messages',
      content: (v) => {
        const template = (v.messages as Json[])[0];
        const messages = Array.from({ length: IMPORT_MESSAGES_MAX + 1 }, (_, i) => ({ ...template, id: i + 1 }));
        return JSON.stringify({ ...v, messages, taskLists: [], workers: [] });
      },
      message: new RegExp(
        `over Stepwise's limits: it holds ${IMPORT_MESSAGES_MAX + 1} messages \\(at most ${IMPORT_MESSAGES_MAX}\\)`,
      ),
    },
  ];

  for (const refusal of refusals) {
    it(`refuses ${refusal.name}, naming why, and leaves the database unchanged`, async () => {
      const valid = JSON.parse(await exportJson(conversationId));
      const before = dumpDatabase(app.db);
      const seen = recordEvents(app);
      const error = await app.fail('import:conversation', { content: refusal.content(valid) });
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(refusal.message);
      expect(error.message).toMatch(/Nothing was imported\.$/);
      expect(dumpDatabase(app.db)).toEqual(before);
      expect(seen).toEqual([]);
    });
  }

  it('rolls back everything when a write fails halfway (one transaction)', async () => {
    const text = await exportJson(conversationId);
    const before = dumpDatabase(app.db);
    // A real SQLite failure after messages and lists are already written.
    app.db.exec(
      "CREATE TEMP TRIGGER fail_deps BEFORE INSERT ON task_deps BEGIN SELECT RAISE(ABORT, 'disk says no'); END",
    );
    const error = await app.fail('import:conversation', { content: text });
    expect(error).toEqual({
      code: 'internal',
      message: 'Stepwise could not store the imported conversation (disk says no). Nothing was imported.',
    });
    app.db.exec('DROP TRIGGER fail_deps');
    expect(dumpDatabase(app.db)).toEqual(before);
  });
});

describe('import:conversation in each host', () => {
  it('browser host: asks for the file text when none was sent', async () => {
    expect(await app.call('import:conversation', {})).toEqual({ kind: 'needs-file' });
  });

  it('desktop: reads the file main picked with the open dialog; cancel imports nothing', async () => {
    const file = path.join(dir, 'launch.json');
    fs.writeFileSync(file, await exportJson(conversationId));
    app.core.close();
    const { dialogs, asked } = scriptedDialogs({ open: file });
    app = startCore(path.join(dir, 'data'), { fileDialogs: dialogs });
    const imported = await app.call('import:conversation', {});
    expect(imported).toMatchObject({ kind: 'imported', title: 'Plan the launch' });
    expect(asked).toEqual([{ kind: 'open', extensions: ['json'] }]);

    app.core.close();
    app = startCore(path.join(dir, 'data'), { fileDialogs: scriptedDialogs({ open: null }).dialogs });
    const before = dumpDatabase(app.db);
    expect(await app.call('import:conversation', {})).toEqual({ kind: 'cancelled' });
    expect(dumpDatabase(app.db)).toEqual(before);

    app.core.close();
    app = startCore(path.join(dir, 'data'), {
      fileDialogs: scriptedDialogs({ open: path.join(dir, 'gone.json') }).dialogs,
    });
    const error = await app.fail('import:conversation', {});
    expect(error.message).toContain('Could not read');
  });

  it('desktop: saves the conversation export where the save dialog says', async () => {
    const target = path.join(dir, 'launch.md');
    app.core.close();
    const { dialogs, asked } = scriptedDialogs({ save: target });
    app = startCore(path.join(dir, 'data'), { fileDialogs: dialogs });
    expect(await app.call('export:conversation', { conversationId, format: 'md' })).toEqual({
      kind: 'saved',
      path: target,
    });
    expect(asked[0]).toMatchObject({
      kind: 'save',
      defaultName: expect.stringMatching(/^stepwise-conversation-plan-the-launch-.*\.md$/),
      extensions: ['md'],
    });
    expect(fs.readFileSync(target, 'utf8')).toMatch(/^# Plan the launch\n/);
    // Private whatever the umask, and even over a file others could read.
    if (process.platform !== 'win32') {
      expect(fs.statSync(target).mode & 0o777).toBe(0o600);
      fs.chmodSync(target, 0o644);
      await app.call('export:conversation', { conversationId, format: 'md' });
      expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    }
  });
});

describe('conversation Markdown export', () => {
  it('shows who said what, one line per tool call, and the task list at the end', async () => {
    const result = await app.call('export:conversation', { conversationId, format: 'md' });
    if (result.kind !== 'download') throw new Error('expected a download');
    expect(result.mimeType).toBe('text/markdown');
    const tree = parseGfm(result.text);
    const sections = headings(tree).map((h) => `${h.depth} ${h.text.replace(/ · .*/, '')}`);
    expect(sections).toEqual([
      '1 Plan the launch',
      '2 You',
      '2 Assistant',
      '2 Assistant',
      '2 You',
      '2 Assistant',
      '2 Workers',
      '2 Task list at the end',
    ]);

    // Each tool call is one list item: name, arguments, and the first line of its result.
    const toolLines: string[] = [];
    walk(tree, (node) => {
      if (node.type === 'listItem' && textOf(node).startsWith('Tool ')) toolLines.push(textOf(node));
    });
    expect(toolLines).toEqual([
      'Tool manage_todo_list {"todoList":[{"id":1,"title":"Draft"}]} → Task list updated: 1/3 completed',
      'Tool current_time → 2026-05-01T09:30:00Z',
    ]);
    // The unclosed code fence in a reply is closed, so the rest of the file still renders.
    const code = tree.children.filter((n) => n.type === 'code');
    expect(code).toHaveLength(1);
    expect(result.text).toContain('_Error: Rate limited (429)_');
    // A model's thinking is a quote above its reply, its HTML inert like the reply's.
    expect(result.text).toContain(
      '> **Thinking** (1 s)\n>\n> They want code.\n>\n> Show \\<b>one\\</b> line.\n\nHere is code:',
    );

    const items = listItems(tree).filter((i) => i.checked !== null);
    expect(items.map((i) => [i.checked, i.title, i.notes])).toEqual([
      [true, 'Order cake', []],
      [false, 'Decorate', ['(in progress)', '(owner: worker-1)']],
    ]);
    expect(textOf(tree)).toContain('Task list 2 (open) · Progress: 1/2');
  });

  it('keeps raw HTML in messages inert, and code verbatim', async () => {
    const id = (await app.call('conversations:create', { title: 'HTML' })).id;
    const content = [
      'Look: <img src="https://tracker.example/p.gif"> and <script>alert(1)</script>',
      '<div onclick="x()">block</div>',
      '<!-- hidden comment -->',
      'Inline `<b>` stays code, \\<i>escaped backslash</i>',
      '```html',
      '<div>in a fence</div>',
      '```',
    ].join('\n');
    app.core.messages.insert({ conversationId: id, role: 'assistant', content });
    const result = await app.call('export:conversation', { conversationId: id, format: 'md' });
    if (result.kind !== 'download') throw new Error('expected a download');
    const tree = parseGfm(result.text);
    const kinds: string[] = [];
    walk(tree, (node) => kinds.push(node.type));
    expect(kinds).not.toContain('html');
    const text = textOf(tree);
    expect(text).toContain('Look: <img src="https://tracker.example/p.gif"> and <script>alert(1)</script>');
    expect(text).toContain('<div onclick="x()">block</div>');
    expect(text).toContain('<!-- hidden comment -->');
    const code: string[] = [];
    walk(tree, (node) => {
      if (node.type === 'code' || node.type === 'inlineCode') code.push(node.value);
    });
    expect(code).toEqual(['<b>', '<div>in a fence</div>']);
  });

  it('refuses an unknown conversation', async () => {
    const unknown = '0e0e0e0e-0000-4000-8000-000000000000';
    expect(await app.fail('export:conversation', { conversationId: unknown, format: 'json' })).toEqual({
      code: 'not_found',
      message: `Conversation ${unknown} not found`,
    });
  });
});

// ---- helpers that damage a valid export in one place ----------------------------------

type Json = Record<string, unknown>;
function withMessage(v: Json, index: number, patch: Json): Json {
  const messages = [...(v.messages as Json[])];
  messages[index] = { ...messages[index], ...patch };
  return { ...v, messages };
}
function withList(v: Json, index: number, patch: Json): Json {
  const lists = [...(v.taskLists as Json[])];
  lists[index] = { ...lists[index], ...patch };
  return { ...v, taskLists: lists };
}
function withTask(v: Json, listIndex: number, taskIndex: number, patch: Json): Json {
  const list = (v.taskLists as Json[])[listIndex];
  const tasks = [...(list.tasks as Json[])];
  tasks[taskIndex] = { ...tasks[taskIndex], ...patch };
  return withList(v, listIndex, { tasks });
}
