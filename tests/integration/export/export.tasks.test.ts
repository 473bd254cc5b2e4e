// Task list exports through the contract, parsed back by real parsers: a GFM Markdown
// parser, csv-parse and the zod schema of the JSON format.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TasksExport } from '../../../src/shared/exportFormat';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { insertList, RELEASE_TASKS, scriptedDialogs, startCore, T0, type TestCore } from './exportFixtures';
import { headings, listItems, parseGfm, textOf } from './markdownTree';

let dir: string;
let app: TestCore;
let releaseId: string;

beforeEach(async () => {
  dir = makeTempDir('stepwise-export-');
  app = startCore(path.join(dir, 'data'));
  releaseId = (await app.call('conversations:create', { title: 'Release v2' })).id;
  insertList(app.db, releaseId, { tasks: RELEASE_TASKS });
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

describe('Markdown', () => {
  it('is a GFM task list with the right checked and unchecked items', async () => {
    const { text, filename, mimeType } = await app.call('export:tasksText', {
      conversationId: releaseId,
      format: 'md',
      scope: 'open',
    });
    expect(mimeType).toBe('text/markdown');
    expect(filename).toMatch(/^stepwise-tasks-release-v2-\d{4}-\d{2}-\d{2}\.md$/);

    const tree = parseGfm(text);
    expect(headings(tree)).toEqual([{ depth: 1, text: 'Release v2' }]);
    const paragraphs = tree.children.filter((n) => n.type === 'paragraph').map((n) => textOf(n));
    expect(paragraphs.some((p) => p.includes('Progress: 2/5'))).toBe(true);
    expect(paragraphs.some((p) => /Exported from Stepwise on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/.test(p))).toBe(true);

    const items = listItems(tree);
    expect(items.map(({ checked, title, struck, notes }) => ({ checked, title, struck, notes }))).toEqual([
      { checked: true, title: 'Set up project structure', struck: false, notes: [] },
      { checked: true, title: 'Create data models', struck: false, notes: [] },
      { checked: false, title: 'Build UI widget', struck: false, notes: ['(in progress)'] },
      { checked: false, title: 'Write tests', struck: false, notes: ['(blocked by #3)'] },
      { checked: null, title: 'Old idea', struck: true, notes: ['(cancelled)'] },
      // Its blocker (task 1) is completed, so it is no longer blocked.
      { checked: false, title: 'Ship it', struck: false, notes: ['(owner: worker-1)'] },
    ]);
    expect(items[1].description).toEqual(['User, Task and List.', 'With zod schemas.']);
    // The list stays tight: descriptions are hard-broken lines in the item, not paragraphs.
    const list = tree.children.find((n) => n.type === 'list');
    expect(list && list.type === 'list' && list.spread).toBe(false);
  });

  it('puts every list of a conversation in its own section for the history scope', async () => {
    app.db.prepare('UPDATE task_lists SET closed_at = ?').run(T0 + 5000);
    insertList(app.db, releaseId, {
      createdAt: T0 + 9000,
      tasks: [{ seq: 1, title: 'Next round', status: 'pending' }],
    });

    const { text, filename } = await app.call('export:tasksText', {
      conversationId: releaseId,
      format: 'md',
      scope: 'history',
    });
    expect(filename).toContain('-history-');
    const tree = parseGfm(text);
    expect(headings(tree)).toEqual([
      { depth: 1, text: 'Release v2' },
      { depth: 2, text: 'Task list 1 (closed) · Progress: 2/5' },
      { depth: 2, text: 'Task list 2 (open) · Progress: 0/1' },
    ]);
    expect(listItems(tree).map((i) => i.title)).toEqual([...RELEASE_TASKS.map((t) => t.title), 'Next round']);

    const open = await app.call('export:tasksText', { conversationId: releaseId, format: 'md', scope: 'open' });
    expect(listItems(parseGfm(open.text)).map((i) => i.title)).toEqual(['Next round']);
  });

  it('has a section per conversation for the all scope, skipping conversations without lists', async () => {
    const other = await app.call('conversations:create', { title: 'Garden plan' });
    await app.call('conversations:create', { title: 'Just chatting' });
    insertList(app.db, other.id, { tasks: [{ seq: 1, title: 'Buy seeds', status: 'completed' }] });

    const { text, filename } = await app.call('export:tasksText', { format: 'md', scope: 'all' });
    expect(filename).toMatch(/^stepwise-tasks-all-/);
    const sections = headings(parseGfm(text));
    expect(
      sections
        .filter((h) => h.depth === 2)
        .map((h) => h.text)
        .sort(),
    ).toEqual(['Garden plan', 'Release v2']);
    expect(sections[0]).toEqual({ depth: 1, text: 'Stepwise task lists' });
    expect(sections).toContainEqual({ depth: 3, text: 'Task list 1 (open) · Progress: 1/1' });
    expect(listItems(parseGfm(text))).toHaveLength(RELEASE_TASKS.length + 1);
  });
});

describe('JSON', () => {
  it('validates against the stepwise.tasks schema and carries ids, blockers and events', async () => {
    const { text, mimeType } = await app.call('export:tasksText', {
      conversationId: releaseId,
      format: 'json',
      scope: 'open',
    });
    expect(mimeType).toBe('application/json');
    const data = TasksExport.parse(JSON.parse(text));
    expect(data.format).toBe('stepwise.tasks');
    expect(data.version).toBe(2);
    expect(data.conversations).toHaveLength(1);
    const [conversation] = data.conversations;
    expect(conversation).toMatchObject({ id: releaseId, title: 'Release v2' });
    const [list] = conversation.lists;
    expect(list).toMatchObject({ id: 1, closedAt: null, createdAt: new Date(T0).toISOString() });
    expect(list.tasks.map((t) => [t.id, t.status, t.blockedBy])).toEqual([
      [1, 'completed', []],
      [2, 'completed', []],
      [3, 'in_progress', []],
      [4, 'pending', [3]],
      [5, 'cancelled', []],
      [6, 'pending', [1]],
    ]);
    expect(list.tasks[2]).toMatchObject({
      title: 'Build UI widget',
      activeForm: 'Building UI widget',
      owner: 'main',
      completedAt: null,
    });
    expect(list.tasks[0].completedAt).toBe(new Date(T0 + 3000).toISOString());
    expect(list.tasks[5].owner).toBe('worker-1');
    expect(list.tasks[0].events).toEqual([
      {
        id: 1,
        at: new Date(T0 + 1000).toISOString(),
        actor: 'model',
        kind: 'created',
        before: null,
        after: 'Set up project structure',
      },
    ]);
    // Events are numbered across the file in the order they happened.
    expect(list.tasks.flatMap((t) => t.events.map((e) => e.id))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps list-level events and the events of deleted tasks on the list', async () => {
    const listId = insertList(app.db, (await app.call('conversations:create', { title: 'Cleanup' })).id, {
      tasks: [
        { seq: 1, title: 'Keep me' },
        { seq: 2, title: 'Delete me', events: [{ actor: 'user', kind: 'created', after: 'Delete me' }] },
      ],
      listEvents: [{ kind: 'reordered' }],
    });
    app.db.prepare('DELETE FROM tasks WHERE list_id = ? AND seq = 2').run(listId);

    const { text } = await app.call('export:tasksText', { format: 'json', scope: 'all' });
    const data = TasksExport.parse(JSON.parse(text));
    const cleanup = data.conversations.find((c) => c.title === 'Cleanup')!;
    expect(cleanup.lists[0].tasks.map((t) => t.title)).toEqual(['Keep me']);
    expect(cleanup.lists[0].events.map((e) => [e.kind, e.actor, e.after])).toEqual([
      ['created', 'user', 'Delete me'],
      ['reordered', 'user', null],
    ]);
  });

  it('is a valid empty export when no conversation has a list', async () => {
    app.db.prepare('DELETE FROM task_lists').run();
    const { text } = await app.call('export:tasksText', { format: 'json', scope: 'all' });
    expect(TasksExport.parse(JSON.parse(text)).conversations).toEqual([]);
  });
});

describe('CSV', () => {
  it('is one row per task with the documented columns, CRLF line ends', async () => {
    const { text, mimeType, filename } = await app.call('export:tasksText', {
      conversationId: releaseId,
      format: 'csv',
      scope: 'open',
    });
    expect(mimeType).toBe('text/csv');
    expect(filename.endsWith('.csv')).toBe(true);
    expect(text.startsWith('\uFEFF')).toBe(false);
    expect(text.split('\r\n')[0]).toBe(
      'conversation,conversation_id,list,id,title,status,owner,blocked_by,created_at,completed_at,description,tool_calls,changed_by',
    );
    const rows = parseCsv(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(RELEASE_TASKS.length);
    expect(rows[3]).toEqual({
      conversation: 'Release v2',
      conversation_id: releaseId,
      list: '1',
      id: '4',
      title: 'Write tests',
      status: 'pending',
      owner: 'main',
      blocked_by: '3',
      created_at: new Date(T0 + 4000).toISOString(),
      completed_at: '',
      description: '',
      tool_calls: '0',
      changed_by: '',
    });
    expect(rows[1].description).toBe('User, Task and List.\nWith zod schemas.');
    expect(rows[0].completed_at).toBe(new Date(T0 + 3000).toISOString());
  });
});

describe('errors', () => {
  it('names what is missing', async () => {
    const empty = await app.call('conversations:create', { title: 'No tasks here' });
    expect(await app.fail('export:tasksText', { conversationId: empty.id, format: 'md', scope: 'open' })).toEqual({
      code: 'not_found',
      message: '"No tasks here" has no open task list. Export its history (every list) instead.',
    });
    expect(
      await app.fail('export:tasksText', { conversationId: empty.id, format: 'md', scope: 'history' }),
    ).toMatchObject({
      code: 'not_found',
      message: '"No tasks here" has no task lists yet.',
    });
    const unknown = '3f0c2a9e-1111-4111-8111-111111111111';
    expect(await app.fail('export:tasks', { conversationId: unknown, format: 'csv', scope: 'history' })).toEqual({
      code: 'not_found',
      message: `Conversation ${unknown} not found`,
    });
    expect(await app.fail('export:tasksText', { format: 'md', scope: 'history' })).toEqual({
      code: 'invalid_request',
      message: 'Exporting the list history needs a conversation id.',
    });
    // Without a conversation, `open` is the open tasks across conversations (the task board).
    const across = await app.call('export:tasksText', { format: 'md', scope: 'open' });
    expect(across.text).toMatch(/^# Open tasks across conversations\n/);
    expect(across.filename).toMatch(/^stepwise-tasks-open-/);
    expect(
      await app.fail('export:tasksText', { conversationId: releaseId, format: 'pdf', scope: 'open' }),
    ).toMatchObject({
      code: 'invalid_request',
    });
  });
});

describe('export:tasks delivery', () => {
  it('returns a download in the browser host; CSV files carry a UTF-8 byte-order mark', async () => {
    const md = await app.call('export:tasks', { conversationId: releaseId, format: 'md', scope: 'open' });
    const text = await app.call('export:tasksText', { conversationId: releaseId, format: 'md', scope: 'open' });
    expect(md).toMatchObject({ kind: 'download', mimeType: 'text/markdown', filename: text.filename });
    expect(md.kind === 'download' && md.text.replace(/on .* UTC/, '')).toBe(text.text.replace(/on .* UTC/, ''));

    const csv = await app.call('export:tasks', { conversationId: releaseId, format: 'csv', scope: 'open' });
    expect(csv.kind === 'download' && csv.text.startsWith('\uFEFF')).toBe(true);
    if (csv.kind === 'download')
      expect(parseCsv(csv.text, { columns: true, bom: true })).toHaveLength(RELEASE_TASKS.length);
  });

  it('saves where the desktop save dialog says, and writes nothing when it is cancelled', async () => {
    app.core.close();
    const target = path.join(dir, 'chosen', 'tasks.json');
    fs.mkdirSync(path.dirname(target));
    const { dialogs, asked } = scriptedDialogs({ save: target });
    app = startCore(path.join(dir, 'data'), { fileDialogs: dialogs });

    const saved = await app.call('export:tasks', { conversationId: releaseId, format: 'json', scope: 'history' });
    expect(saved).toEqual({ kind: 'saved', path: target });
    expect(asked).toEqual([
      {
        kind: 'save',
        defaultName: expect.stringMatching(/^stepwise-tasks-release-v2-history-.*\.json$/),
        extensions: ['json'],
      },
    ]);
    expect(TasksExport.parse(JSON.parse(fs.readFileSync(target, 'utf8'))).conversations[0].lists[0].tasks).toHaveLength(
      6,
    );
    expect(fs.readdirSync(path.dirname(target))).toEqual(['tasks.json']);

    app.core.close();
    const cancelling = scriptedDialogs({ save: null });
    app = startCore(path.join(dir, 'data'), { fileDialogs: cancelling.dialogs });
    expect(await app.call('export:tasks', { conversationId: releaseId, format: 'csv', scope: 'open' })).toEqual({
      kind: 'cancelled',
    });
    expect(await app.call('export:conversation', { conversationId: releaseId, format: 'md' })).toEqual({
      kind: 'cancelled',
    });
    expect(fs.readdirSync(path.dirname(target))).toEqual(['tasks.json']);
  });

  it('reports a path it cannot write to', async () => {
    app.core.close();
    const missingDir = path.join(dir, 'does-not-exist', 'tasks.md');
    app = startCore(path.join(dir, 'data'), { fileDialogs: scriptedDialogs({ save: missingDir }).dialogs });
    const error = await app.fail('export:tasks', { conversationId: releaseId, format: 'md', scope: 'open' });
    expect(error.code).toBe('internal');
    expect(error.message).toContain(`Could not save ${missingDir}`);
    expect(fs.existsSync(path.dirname(missingDir))).toBe(false);
  });
});
