// The built command line (out/main/cli.js, what `npm run cli` runs) as a separate
// process against a real data directory: exit codes, standard output, and read-only use
// of a database that the app has closed or still holds open.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { TasksExport } from '../../src/shared/exportFormat';
import { makeTempDir, removeDir } from '../support/tempDir';

const root = path.resolve(import.meta.dirname, '../..');
const cliJs = path.join(root, 'out/main/cli.js');

function run(args: string[], options: { script?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [options.script ?? cliJs, ...args],
      {
        cwd: options.cwd ?? root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let dir: string;
let dataDir: string;
let conversationId: string;

beforeAll(async () => {
  dir = makeTempDir('stepwise-cli-e2e-');
  dataDir = path.join(dir, 'data');
  const core = createNodeCore({ dataDir, env: {} });
  const created = await core.dispatch('conversations:create', { title: 'Release v2' });
  if (!created.ok) throw new Error(created.error.message);
  conversationId = (created.value as { id: string }).id;
  const listId = core.db
    .prepare('INSERT INTO task_lists (conversation_id, created_at) VALUES (?, ?)')
    .run(conversationId, Date.now()).lastInsertRowid;
  const insert = core.db.prepare(
    'INSERT INTO tasks (list_id, seq, title, status, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  insert.run(listId, 1, 'Write the notes', 'completed', 0, Date.now(), Date.now());
  insert.run(listId, 2, 'Publish', 'pending', 1, Date.now(), Date.now());
  // Closed: the WAL is checkpointed and its files removed, as after quitting the app.
  core.close();
});

afterAll(() => removeDir(dir));

describe('npm run cli (built)', () => {
  it('lists conversations and exports Markdown from a closed database without changing it', async () => {
    const file = path.join(dataDir, 'stepwise.db');
    const before = fs.readFileSync(file);
    const list = await run(['list', '--data-dir', dataDir]);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(new RegExp(`^${conversationId}\\s+\\S+ \\S+\\s+1/2\\s+1\\s+Release v2$`, 'm'));

    const md = await run(['export', '--format', 'md', '--conversation', conversationId, '--data-dir', dataDir]);
    expect(md).toMatchObject({ code: 0, stderr: '' });
    expect(md.stdout).toContain('- [x] Write the notes\n- [ ] Publish\n');
    expect(md.stdout).toContain('Progress: 1/2');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    // SQLite's read-only readers of a WAL database still open its companion files; the
    // log stays empty, so nothing was written.
    const wal = path.join(dataDir, 'stepwise.db-wal');
    expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
  });

  it('exports the open tasks across conversations with --scope open and no conversation', async () => {
    const file = path.join(dataDir, 'stepwise.db');
    const before = fs.readFileSync(file);
    const md = await run(['export', '--format', 'md', '--scope', 'open', '--data-dir', dataDir]);
    expect(md).toMatchObject({ code: 0, stderr: '' });
    expect(md.stdout).toContain('# Open tasks across conversations');
    expect(md.stdout).toContain('## Release v2\n\nProgress: 1/2');
    expect(md.stdout).toContain('- [x] Write the notes\n- [ ] Publish\n');
    const csv = await run(['export', '--format', 'csv', '--scope', 'open', '--data-dir', dataDir]);
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(3);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('reads alongside a running app and writes --out relative to where it was typed', async () => {
    const core = createNodeCore({ dataDir, env: {} });
    try {
      await core.dispatch('conversations:rename', { id: conversationId, title: 'Release v2.1' });
      const out = await run(['export', '--format', 'json', '--out', 'tasks.json'], {
        env: { STEPWISE_DATA_DIR: dataDir, INIT_CWD: dir },
      });
      expect(out).toEqual({ code: 0, stdout: '', stderr: `Wrote ${path.join(dir, 'tasks.json')}\n` });
      const data = TasksExport.parse(JSON.parse(fs.readFileSync(path.join(dir, 'tasks.json'), 'utf8')));
      expect(data.conversations.map((c) => c.title)).toEqual(['Release v2.1']);
    } finally {
      core.close();
    }
  });

  it('exits 1 with one clear line for an unknown id or a missing database', async () => {
    const unknown = await run([
      'export',
      '--format',
      'csv',
      '--conversation',
      '0e0e0e0e-0000-4000-8000-000000000000',
      '--data-dir',
      dataDir,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toBe(
      `stepwise: No conversation with id "0e0e0e0e-0000-4000-8000-000000000000" in ${path.join(dataDir, 'stepwise.db')}. Run \`npm run cli -- list\` to see the ids.\n`,
    );

    const missing = await run(['list', '--data-dir', path.join(dir, 'empty')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `stepwise: No Stepwise database at ${path.join(dir, 'empty', 'stepwise.db')}. Start Stepwise once, or point --data-dir (or STEPWISE_DATA_DIR) at the right directory.\n`,
    );
    expect(fs.existsSync(path.join(dir, 'empty'))).toBe(false);
  });

  it('runs through scripts/cli.mjs, as `npm run cli` does', async () => {
    const result = await run(['export', '--format', 'csv', '--data-dir', dataDir], {
      script: path.join(root, 'scripts/cli.mjs'),
    });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\r\n')[0]).toBe(
      'conversation,conversation_id,list,id,title,status,owner,blocked_by,created_at,completed_at,description,tool_calls,changed_by',
    );
  });
});

describe.skipIf(process.platform === 'win32')('npm run cli --out to special files', () => {
  const args = () => ['export', '--format', 'md', '--conversation', conversationId, '--data-dir', dataDir];

  it('writes into a FIFO (a reader gets the export) and leaves it a FIFO', async () => {
    const fifo = path.join(dir, 'tasks.fifo');
    execFileSync('mkfifo', [fifo]);
    // The reader opens the FIFO while the CLI writes into it.
    const read = new Promise<string>((resolve, reject) => {
      let text = '';
      fs.createReadStream(fifo, 'utf8')
        .on('data', (chunk) => (text += String(chunk)))
        .on('end', () => resolve(text))
        .on('error', reject);
    });
    const result = await run([...args(), '--out', fifo]);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await read).toContain('- [x] Write the notes\n- [ ] Publish\n');
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
  });

  it('writes to standard output for `--out -` and `--out /dev/stdout`, and into /dev/null without replacing it', async () => {
    const dash = await run([...args(), '--out', '-']);
    expect(dash.code).toBe(0);
    expect(dash.stdout).toContain('- [x] Write the notes\n');
    const devStdout = await run([...args(), '--out', '/dev/stdout']);
    expect(devStdout.code).toBe(0);
    // The same export, but for the minute it was made in (two runs may straddle a minute).
    const undated = (text: string) => text.replace(/^Exported from Stepwise on .*$/m, 'Exported from Stepwise on …');
    expect(undated(devStdout.stdout)).toBe(undated(dash.stdout));
    expect(fs.lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
    const devNull = await run([...args(), '--out', '/dev/null']);
    expect(devNull).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('still writes a regular file through a temp file and rename, private when new', async () => {
    const file = path.join(dir, 'tasks.md');
    const result = await run([...args(), '--out', file]);
    expect(result).toEqual({ code: 0, stdout: '', stderr: `Wrote ${file}\n` });
    expect(fs.readFileSync(file, 'utf8')).toContain('- [ ] Publish\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir).filter((f) => f.includes('tasks.md') && f !== 'tasks.md')).toEqual([]);
  });
});
