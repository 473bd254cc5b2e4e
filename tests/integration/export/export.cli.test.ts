// The command line's logic, called directly (tests/e2e/cli.test.ts runs the built file):
// listing, exporting in each format to stdout or a file, read-only access while the app
// has the database open, and clear errors with exit code 1.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, USAGE } from '../../../src/main/cli/runCli';
import { ConversationExport, TasksExport } from '../../../src/shared/exportFormat';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { dumpDatabase, insertList, RELEASE_TASKS, startCore, T0, type TestCore } from './exportFixtures';
import { listItems, parseGfm } from './markdownTree';

let dir: string;
let dataDir: string;
let app: TestCore;
let releaseId: string;
let gardenId: string;

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    cwd: dir,
    now: () => T0,
  });
  return { code, stdout, stderr };
}

beforeEach(async () => {
  dir = makeTempDir('stepwise-cli-');
  dataDir = path.join(dir, 'data');
  app = startCore(dataDir);
  releaseId = (await app.call('conversations:create', { title: 'Release v2' })).id;
  gardenId = (await app.call('conversations:create', { title: 'Garden\nplan' })).id;
  await app.call('conversations:create', { title: 'Chat only' });
  insertList(app.db, releaseId, { tasks: RELEASE_TASKS });
  insertList(app.db, gardenId, { closedAt: T0 + 1, tasks: [{ seq: 1, title: 'Buy seeds', status: 'completed' }] });
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

describe('list', () => {
  it('prints a table of conversation ids, open-list progress and titles on one line each', () => {
    const { code, stdout, stderr } = cli(['list', '--data-dir', dataDir]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+UPDATED \(UTC\)\s+TASKS\s+LISTS\s+TITLE$/);
    expect(lines).toHaveLength(4);
    const release = lines.find((l) => l.startsWith(releaseId))!;
    expect(release.split(/\s{2,}/)).toEqual([
      releaseId,
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
      '2/5',
      '1',
      'Release v2',
    ]);
    const garden = lines.find((l) => l.startsWith(gardenId))!;
    expect(garden.split(/\s{2,}/).slice(2)).toEqual(['-', '1', 'Garden plan']);
  });

  it('prints JSON for scripts with --json', () => {
    const { code, stdout } = cli(['list', '--json', '--data-dir', dataDir]);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ id: string; title: string; taskLists: number; openList: unknown }>;
    expect(rows.map((r) => r.title).sort()).toEqual(['Chat only', 'Garden\nplan', 'Release v2']);
    expect(rows.find((r) => r.id === releaseId)).toMatchObject({ taskLists: 1, openList: { done: 2, total: 5 } });
    expect(rows.find((r) => r.id === gardenId)).toMatchObject({ taskLists: 1, openList: null });
  });

  it('takes the data directory from STEPWISE_DATA_DIR', () => {
    const { code, stdout } = cli(['list'], { STEPWISE_DATA_DIR: dataDir });
    expect(code).toBe(0);
    expect(stdout).toContain(releaseId);
  });
});

describe('export', () => {
  it('writes each format to standard output, the same text the app exports', async () => {
    for (const format of ['md', 'json', 'csv'] as const) {
      const { code, stdout, stderr } = cli([
        'export',
        '--format',
        format,
        '--conversation',
        releaseId,
        '--data-dir',
        dataDir,
      ]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const app_ = await app.call('export:tasksText', { conversationId: releaseId, format, scope: 'open' });
      const withoutTimes = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}[ T][\d:.]+Z?( UTC)?/g, '<time>');
      expect(withoutTimes(stdout)).toBe(withoutTimes(app_.text));
    }
    const md = cli(['export', '--format', 'md', '--conversation', releaseId, '--data-dir', dataDir]).stdout;
    expect(listItems(parseGfm(md)).map((i) => i.checked)).toEqual([true, true, false, false, null, false]);
  });

  it('exports every conversation by default, or a conversation history with --scope history', () => {
    const all = cli(['export', '--format', 'json', '--data-dir', dataDir]);
    expect(all.code).toBe(0);
    const data = TasksExport.parse(JSON.parse(all.stdout));
    expect(data.exportedAt).toBe(new Date(T0).toISOString());
    expect(data.conversations.map((c) => c.id).sort()).toEqual([releaseId, gardenId].sort());

    const history = cli([
      'export',
      '--format',
      'csv',
      '--conversation',
      gardenId,
      '--scope',
      'history',
      '--data-dir',
      dataDir,
    ]);
    expect(history.code).toBe(0);
    expect(parseCsv(history.stdout, { columns: true })).toEqual([
      expect.objectContaining({ conversation: 'Garden\nplan', title: 'Buy seeds', status: 'completed' }),
    ]);
  });

  it('exports the open tasks across conversations with --scope open and no --conversation', () => {
    const open = cli(['export', '--format', 'json', '--scope', 'open', '--data-dir', dataDir]);
    expect(open.code).toBe(0);
    const data = TasksExport.parse(JSON.parse(open.stdout));
    // Only lists with unfinished tasks, as the task board shows them.
    expect(data.conversations.map((c) => c.id)).toEqual([releaseId]);
    expect(data.conversations[0].lists).toHaveLength(1);
    expect(data.conversations[0].lists[0].closedAt).toBeNull();
  });

  it('writes to --out, relative to where the command was typed', () => {
    const { code, stdout, stderr } = cli(['export', '--format', 'md', '--out', 'tasks.md', '--data-dir', dataDir]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(`Wrote ${path.join(dir, 'tasks.md')}\n`);
    expect(fs.readFileSync(path.join(dir, 'tasks.md'), 'utf8')).toMatch(/^# Stepwise task lists\n/);
  });

  it('exports a whole conversation with export-conversation', () => {
    const { code, stdout } = cli([
      'export-conversation',
      '--format',
      'json',
      '--conversation',
      releaseId,
      '--data-dir',
      dataDir,
    ]);
    expect(code).toBe(0);
    expect(ConversationExport.parse(JSON.parse(stdout)).taskLists[0].tasks).toHaveLength(RELEASE_TASKS.length);
  });

  it('reads while the app holds the database open, and changes nothing', async () => {
    const before = dumpDatabase(app.db);
    const bytes = fs.readFileSync(path.join(dataDir, 'stepwise.db'));
    // A write the app makes is visible to the next CLI run (WAL, read-only connection).
    await app.call('conversations:rename', { id: releaseId, title: 'Release v2.1' });
    expect(cli(['list', '--data-dir', dataDir]).stdout).toContain('Release v2.1');
    expect(cli(['export', '--format', 'json', '--data-dir', dataDir]).code).toBe(0);
    const after = dumpDatabase(app.db);
    // The rename changed `conversations`, its title index, the folded search text of its
    // task list (migration 28) and that text's index (migration 31), all kept by the app's
    // triggers; nothing else may change.
    const untouched = (dump: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(dump).filter(
          ([table]) => !table.startsWith('conversations') && !table.startsWith('task_lists_fts'),
        ),
      );
    const withoutSearchText = (dump: Record<string, unknown[]>) => ({
      ...dump,
      task_lists: dump.task_lists.map((row) => (row as unknown[]).slice(0, -1)),
    });
    expect(untouched(withoutSearchText(after))).toEqual(untouched(withoutSearchText(before)));
    expect(JSON.stringify(after.task_lists)).toContain('release v2.1');
    expect(fs.readFileSync(path.join(dataDir, 'stepwise.db')).equals(bytes)).toBe(true);
  });
});

describe('errors (exit code 1, one clear line)', () => {
  const cases: Array<{
    name: string;
    args: () => string[];
    message: string | RegExp | (() => string);
    usage: boolean;
  }> = [
    {
      name: 'an unknown conversation id',
      args: () => [
        'export',
        '--format',
        'md',
        '--conversation',
        '0e0e0e0e-0000-4000-8000-000000000000',
        '--data-dir',
        dataDir,
      ],
      message: () =>
        `stepwise: No conversation with id "0e0e0e0e-0000-4000-8000-000000000000" in ${path.join(dataDir, 'stepwise.db')}. Run \`npm run cli -- list\` to see the ids.`,
      usage: false,
    },
    {
      name: 'an id that is not an id',
      args: () => ['export', '--format', 'md', '--conversation', 'release', '--data-dir', dataDir],
      message: /^stepwise: No conversation with id "release" in /,
      usage: false,
    },
    {
      name: 'a missing database',
      args: () => ['list', '--data-dir', path.join(dir, 'nowhere')],
      message: () =>
        `stepwise: No Stepwise database at ${path.join(dir, 'nowhere', 'stepwise.db')}. Start Stepwise once, or point --data-dir (or STEPWISE_DATA_DIR) at the right directory.`,
      usage: false,
    },
    {
      name: 'a conversation without an open list',
      args: () => ['export', '--format', 'md', '--conversation', gardenId, '--data-dir', dataDir],
      message: 'stepwise: "Garden\nplan" has no open task list. Export its history (every list) instead.',
      usage: false,
    },
    {
      name: 'no format',
      args: () => ['export', '--data-dir', dataDir],
      message: 'stepwise: --format md|json|csv is required.',
      usage: true,
    },
    {
      name: 'an unknown format',
      args: () => ['export', '--format', 'pdf'],
      message: 'stepwise: --format must be one of md, json, csv (got "pdf")',
      usage: true,
    },
    {
      name: 'an unknown scope',
      args: () => ['export', '--format', 'md', '--scope', 'some'],
      message: /--scope must be one of open, history, all/,
      usage: true,
    },
    {
      name: 'history without a conversation',
      args: () => ['export', '--format', 'md', '--scope', 'history', '--data-dir', dataDir],
      message: /--conversation <id> is required here/,
      usage: true,
    },
    { name: 'an unknown command', args: () => ['import'], message: 'stepwise: Unknown command "import".', usage: true },
    {
      name: 'an unknown option',
      args: () => ['list', '--verbose'],
      message: "stepwise: Unknown option '--verbose'.",
      usage: true,
    },
    {
      name: 'an unknown option with a value',
      args: () => ['export', '--host', '0.0.0.0'],
      message: "stepwise: Unknown option '--host'.",
      usage: true,
    },
    { name: 'no command', args: () => [], message: /Say what to do/, usage: true },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}`, () => {
      const { code, stdout, stderr } = cli(c.args());
      // 2 for a mistake in the arguments, with the usage line; 1 for anything else.
      expect(code).toBe(c.usage ? 2 : 1);
      expect(stdout).toBe('');
      const [first, ...rest] = stderr.trimEnd().split('\nUsage: ');
      if (c.message instanceof RegExp) expect(first).toMatch(c.message);
      else expect(first).toBe(typeof c.message === 'function' ? c.message() : c.message);
      expect(rest).toEqual(
        c.usage ? ['npm run cli -- list|export|export-conversation [options] (`npm run cli -- help` for details)'] : [],
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('prints the usage with help', () => {
    expect(cli(['help'])).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    expect(cli(['--help']).stdout).toBe(USAGE);
  });

  it('refuses a database from an older Stepwise it cannot upgrade read-only', () => {
    app.db.pragma('user_version = 3');
    const { code, stderr } = cli(['list', '--data-dir', dataDir]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/has an older schema \(3; this version uses \d+\)\. Open Stepwise once to upgrade it/);
  });
});
