// The task board's query against real SQLite: grouping, order, filters, paging, one
// group at a time, and the export of what it shows. A random run holds the SQL next to
// the shared matching rules the page applies to live updates.
import { parse as parseCsv } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher, type Handlers } from '../../src/main/core/ipc/dispatcher';
import { createBoardQuery, type BoardQuery } from '../../src/main/core/board/boardQuery';
import { boardHandlers } from '../../src/main/core/board/boardHandlers';
import { createFolderRepo } from '../../src/main/core/folders/folderRepo';
import { createExportReader } from '../../src/main/core/export/exportReader';
import { exportTasks } from '../../src/main/core/export/tasksExport';
import { BoardFilter } from '../../src/shared/boardContract';
import { listMatches, shownTasks, type BoardFilterShape } from '../../src/shared/boardView';
import { TasksExport } from '../../src/shared/exportFormat';
import { USER } from '../../src/main/core/tasks/taskService';
import { createTaskFixture, type TaskFixture } from '../support/taskFixture';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let f: TaskFixture;
let board: BoardQuery;
beforeEach(() => {
  dir = makeTempDir();
  f = createTaskFixture(dir);
  board = createBoardQuery(f.db);
});
afterEach(() => {
  f.close();
  removeDir(dir);
});

type Item = { id: number; title: string; status: string; blockedBy?: number[] };
async function listIn(title: string, todoList: Item[]): Promise<string> {
  const { id } = f.conversations.create(title);
  const plain = todoList.map(({ blockedBy: _, ...task }) => task);
  const result = await f.call('manage_todo_list', { todoList: plain }, 'main', id);
  expect(result.ok, result.content).toBe(true);
  expect(f.list(id)?.tasks.length, result.content).toBe(todoList.length);
  // The full-list tool takes no dependencies: the granular one adds them.
  for (const task of todoList.filter((t) => t.blockedBy)) {
    const added = await f.call('task_update', { taskId: task.id, addBlockedBy: task.blockedBy }, 'main', id);
    expect(JSON.parse(added.content), added.content).toMatchObject({ ok: true });
  }
  return id;
}

const filter = (patch: Partial<BoardFilterShape> = {}): BoardFilter => BoardFilter.parse(patch);
const titles = (f2: Partial<BoardFilterShape> = {}) => board.page(filter(f2), 0, 100).groups.map((g) => g.title);

async function seed() {
  const folders = createFolderRepo(f.db);
  const work = folders.create('Work');
  const trip = await listIn('Trip to Lisbon', [
    { id: 1, title: 'Book flights', status: 'completed' },
    { id: 2, title: 'Find a hotel', status: 'in_progress' },
    { id: 3, title: 'Rent a car', status: 'pending', blockedBy: [2] },
  ]);
  folders.move(trip, work.id);
  const done = await listIn('Finished report', [{ id: 1, title: 'Write it', status: 'completed' }]);
  const shopping = await listIn('Shopping', [
    { id: 1, title: 'Buy milk', status: 'pending' },
    { id: 2, title: 'Buy bread', status: 'cancelled' },
  ]);
  const closed = await listIn('Closed one', [{ id: 1, title: 'Old task', status: 'pending' }]);
  f.tasks.close(closed, USER, 'clear-tasks');
  f.conversations.create('No list at all');
  return { work, trip, done, shopping, closed };
}

describe('the task board query', () => {
  it('lists open lists with unfinished tasks, newest activity first, with folder, tasks, owners and blockers', async () => {
    const { trip, work } = await seed();
    expect(titles()).toEqual(['Shopping', 'Trip to Lisbon']);
    // Newer activity in the trip's conversation (the sidebar's order) moves it to the top.
    f.conversations.touch(trip);
    await f.call(
      'manage_todo_list',
      {
        todoList: [
          { id: 1, title: 'Book flights', status: 'completed' },
          { id: 2, title: 'Find a hotel', status: 'completed' },
          { id: 3, title: 'Rent a car', status: 'in_progress', blockedBy: [2] },
        ],
      },
      'main',
      trip,
    );
    const { total, groups } = board.page(filter(), 0, 100);
    expect(total).toBe(2);
    expect(groups[0]).toMatchObject({
      conversationId: trip,
      title: 'Trip to Lisbon',
      folder: { id: work.id, name: 'Work' },
    });
    expect(groups[0].list.tasks.map((t) => [t.id, t.title, t.status, t.owner, t.blockedBy])).toEqual([
      [1, 'Book flights', 'completed', 'main', []],
      [2, 'Find a hotel', 'completed', 'main', []],
      [3, 'Rent a car', 'in_progress', 'main', [2]],
    ]);
    expect(groups[1].folder).toBeNull();
  });

  it('filters by status: blocked is a pending task with open blockers', async () => {
    await seed();
    expect(titles({ statuses: ['blocked'] })).toEqual(['Trip to Lisbon']);
    expect(titles({ statuses: ['in_progress'] })).toEqual(['Trip to Lisbon']);
    expect(titles({ statuses: ['pending'] })).toEqual(['Shopping']);
    // Completed tasks of lists that still have unfinished ones.
    expect(titles({ statuses: ['completed'] })).toEqual(['Trip to Lisbon']);
    expect(titles({ statuses: ['completed'], showCompleted: true })).toEqual(['Finished report', 'Trip to Lisbon']);
  });

  it('filters by folder and by text over conversation and task titles, ignoring case', async () => {
    const { work } = await seed();
    expect(titles({ folderId: work.id })).toEqual(['Trip to Lisbon']);
    expect(titles({ text: 'MILK' })).toEqual(['Shopping']);
    expect(titles({ text: '  lisbon ' })).toEqual(['Trip to Lisbon']);
    expect(titles({ text: 'nothing like this' })).toEqual([]);
    // Non-ASCII case folding, as the page's live matching does it.
    await listIn('ÜBERSICHT', [{ id: 1, title: 'Prüfen', status: 'pending' }]);
    expect(titles({ text: 'übersicht' })).toEqual(['ÜBERSICHT']);
    expect(titles({ text: 'PRÜF' })).toEqual(['ÜBERSICHT']);
  });

  it('"Show completed lists" adds open lists whose every task is done, never closed lists', async () => {
    await seed();
    expect(titles({ showCompleted: true })).toEqual(['Shopping', 'Finished report', 'Trip to Lisbon']);
    expect(titles({ showCompleted: true })).not.toContain('Closed one');
  });

  it('pages: total counts every match, offsets walk them, past the end is empty', async () => {
    for (let i = 0; i < 7; i++) await listIn(`List ${i}`, [{ id: 1, title: `Task ${i}`, status: 'pending' }]);
    const first = board.page(filter(), 0, 3);
    const second = board.page(filter(), 3, 3);
    const third = board.page(filter(), 6, 3);
    expect([first.total, second.total, third.total]).toEqual([7, 7, 7]);
    expect([...first.groups, ...second.groups, ...third.groups].map((g) => g.title)).toEqual(
      [6, 5, 4, 3, 2, 1, 0].map((i) => `List ${i}`),
    );
    expect(board.page(filter(), 10, 3)).toEqual({ total: 7, groups: [] });
  });

  it('counts in slices from the top: the slices add up to the total and end after the last match', async () => {
    for (let i = 0; i < 7; i++) await listIn(`List ${i}`, [{ id: 1, title: `Task ${i}`, status: 'pending' }]);
    const top = { activityAt: Number.MAX_SAFE_INTEGER, conversationId: '' };
    const first = board.countAfter(filter(), top, 3);
    const second = board.countAfter(filter(), first.last!, 3);
    const third = board.countAfter(filter(), second.last!, 3);
    expect([first.counted, second.counted, third.counted]).toEqual([3, 3, 1]);
    const firstPage = board.page(filter(), 0, 3).groups;
    expect(first.last?.conversationId).toBe(firstPage[2].conversationId);
    expect(board.countAfter(filter(), third.last!, 3)).toEqual({ counted: 0, last: null });
    // The filter applies as it does to pages.
    expect(board.countAfter(filter({ text: 'task 4' }), top, 3).counted).toBe(1);
  });

  it('keeps a count until the next change, then counts again', async () => {
    await seed();
    const watched = createBoardQuery(f.db, { onChange: (listener, store) => f.bus.subscribe(() => listener(), store) });
    const page1 = (offset: number) => watched.page(filter(), offset, 1);
    expect(page1(0).total).toBe(2);
    await listIn('Another one', [{ id: 1, title: 'Something', status: 'pending' }]);
    expect(page1(1).total).toBe(3);
    watched.close();
  });

  it('one group at a time: null when the filter would not list it', async () => {
    const { trip, done } = await seed();
    expect(board.group(trip, filter())?.title).toBe('Trip to Lisbon');
    expect(board.group(done, filter())).toBeNull();
    expect(board.group(done, filter({ showCompleted: true }))?.title).toBe('Finished report');
    expect(board.group(trip, filter({ text: 'milk' }))).toBeNull();
  });

  it('agrees with the shared matching rules on random lists and filters', async () => {
    let seedValue = 7;
    const random = () => (seedValue = (seedValue * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const folders = createFolderRepo(f.db);
    const folderIds = [folders.create('A').id, folders.create('B').id];
    const words = ['alpha', 'Beta', 'gamma', 'DELTA'];
    for (let c = 0; c < 25; c++) {
      const n = Math.floor(random() * 5);
      const todoList = Array.from({ length: n }, (_, i) => ({
        id: i + 1,
        title: `${pick(words)} ${i}`,
        status: pick(['pending', 'in_progress', 'completed', 'cancelled', 'pending']),
        ...(i > 0 && random() < 0.4 ? { blockedBy: [i] } : {}),
      })).map((t) => ('blockedBy' in t ? { ...t, status: 'pending' } : t));
      // Only one task may be in progress per owner: keep the first.
      let seen = false;
      for (const t of todoList) {
        if (t.status !== 'in_progress') continue;
        if (seen) t.status = 'pending';
        seen = true;
      }
      const id =
        n === 0
          ? f.conversations.create(`${pick(words)} empty`).id
          : await listIn(`${pick(words)} conv ${c}`, todoList);
      if (random() < 0.5) createFolderRepo(f.db).move(id, pick(folderIds));
    }
    const everyOpen = board.page(filter({ showCompleted: true }), 0, 500).groups;
    for (let run = 0; run < 40; run++) {
      const wanted = filter({
        statuses: (['in_progress', 'pending', 'blocked', 'completed'] as const).filter(() => random() < 0.3),
        folderId: random() < 0.3 ? pick(folderIds) : null,
        text: random() < 0.4 ? pick(['alp', 'BETA', 'a 1', 'conv 1', '']) : '',
        showCompleted: random() < 0.5,
      });
      const expected = everyOpen
        .filter((g) => listMatches({ title: g.title, folderId: g.folder?.id ?? null, tasks: g.list.tasks }, wanted))
        .map((g) => g.conversationId);
      const got = board.page(wanted, 0, 500);
      expect(
        got.groups.map((g) => g.conversationId),
        JSON.stringify(wanted),
      ).toEqual(expected);
      expect(got.total).toBe(expected.length);
      for (const id of expected) expect(board.group(id, wanted)?.conversationId).toBe(id);
    }
  });
});

describe('the board calls', () => {
  it('validates the filter with a message the page can show', async () => {
    await seed();
    const dispatch = createDispatcher(boardHandlers({ board, conversations: f.conversations }) as Handlers, () => {});
    const bad = await dispatch('board:list', { filter: { statuses: ['done'] } });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatchObject({ code: 'invalid_request' });
    expect(!bad.ok && bad.error.message).toContain('status must be one of');
    const unknown = await dispatch('board:group', {
      conversationId: '00000000-0000-4000-8000-000000000000',
      filter: {},
    });
    expect(!unknown.ok && unknown.error.code).toBe('not_found');
    const good = await dispatch('board:list', { filter: { text: 'milk' }, limit: 10 });
    expect(good.ok && (good.value as { total: number }).total).toBe(1);
  });
});

describe('export of open tasks across conversations', () => {
  it('renders what the board shows in Markdown, JSON and CSV', async () => {
    await seed();
    const reader = createExportReader(f.db);
    const md = exportTasks(reader, { scope: 'open', format: 'md' }, 1_800_000_000_000);
    expect(md.filename).toMatch(/^stepwise-tasks-open-.*\.md$/);
    expect(md.text).toContain('# Open tasks across conversations');
    expect(md.text).toContain('## Trip to Lisbon');
    expect(md.text).toContain('- [ ] Rent a car _(blocked by #2)_');
    expect(md.text).not.toContain('Finished report');

    const json = TasksExport.parse(JSON.parse(exportTasks(reader, { scope: 'open', format: 'json' }, 1).text));
    expect(json.conversations.map((c) => c.title)).toEqual(['Shopping', 'Trip to Lisbon']);

    // A filter narrows the tasks as it narrows the board.
    const csv = exportTasks(
      reader,
      { scope: 'open', format: 'csv', filter: filter({ statuses: ['blocked', 'in_progress'] }) },
      1,
    );
    const rows = parseCsv(csv.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.conversation, r.id, r.title, r.status])).toEqual([
      ['Trip to Lisbon', '2', 'Find a hotel', 'in_progress'],
      ['Trip to Lisbon', '3', 'Rent a car', 'pending'],
    ]);
    expect(
      shownTasks(
        board.page(filter(), 0, 10).groups[1].list.tasks,
        'Trip to Lisbon',
        filter({ statuses: ['blocked'] }),
      ).map((t) => t.id),
    ).toEqual([3]);
  });
});
