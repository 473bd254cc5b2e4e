// Routines out and in, and on the command line: the JSON export carries every routine with
// its run history (valid against the published schema), the Markdown export has a
// "Routines" section, an import restores the routines paused; `routines list`, `runs` and
// `run` (a run in the running app, or "Stepwise is not running").
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli } from '../../src/main/cli/runCli';
import { RoutinesExport } from '../../src/shared/routinesExport';
import type { RoutineDraft } from '../../src/shared/routinesContract';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';

let server: ScriptedServer | null = null;
const harnesses: ChatHarness[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  await server?.close();
  server = null;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function start(dataDir?: string) {
  server ??= await startScriptedServer({
    script: (request) => (request.body.stream ? { text: 'Digest done.\nMore below.' } : { text: 'Title' }),
  });
  const dir = dataDir ?? path.join(makeTempDir('stepwise-routines-x-'), 'data');
  if (!dataDir) dirs.push(path.dirname(dir));
  const h = startChatCore(server, { dataDir: dir });
  harnesses.push(h);
  return h;
}

const draft = (patch: Partial<RoutineDraft>): RoutineDraft => ({
  name: 'Digest',
  instructions: 'Write the digest.',
  schedule: { kind: 'weekdays', time: '08:15' },
  model: null,
  folderId: null,
  planReview: 'off',
  autopilot: false,
  tools: [],
  missed: 'skip',
  ...patch,
});

async function save(h: ChatHarness, patch: Partial<RoutineDraft>) {
  const saved = await h.call('routines:save', { id: null, routine: draft(patch) });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  return saved.routine;
}

function cli(args: string[], dataDir: string) {
  let stdout = '';
  let stderr = '';
  const code = runCli([...args, '--data-dir', dataDir], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    cwd: path.dirname(dataDir),
  });
  return { code, stdout, stderr };
}

describe('routines export and import', () => {
  it('JSON carries routines and run history; Markdown has a Routines section; import restores them paused', async () => {
    const h = await start();
    const folder = await h.call('folders:create', { name: 'Reports' });
    const digest = await save(h, { folderId: folder.id, tools: [{ server: 'files', tool: 'write_file' }] });
    await save(h, { name: 'Weekly review', schedule: { kind: 'weekly', day: 5, time: '16:00' }, missed: 'run_once' });
    await h.call('routines:runNow', { id: digest.id });
    await h.waitForEvent('activity:added', (e) => e.event.routineId === digest.id);

    const json = await h.call('routines:export', { format: 'json' });
    expect(json).toMatchObject({ kind: 'download', mimeType: 'application/json' });
    const file = RoutinesExport.parse(JSON.parse(json.kind === 'download' ? json.text : ''));
    expect(file.routines.map((r) => r.name)).toEqual(['Digest', 'Weekly review']);
    expect(file.routines[0]).toMatchObject({
      scheduleText: 'Every weekday at 08:15',
      folder: 'Reports',
      tools: [{ server: 'files', tool: 'write_file' }],
      lastOutcome: 'completed',
      runs: [{ status: 'completed', detail: 'Digest done.', dueAt: null }],
    });

    const md = await h.call('routines:export', { format: 'md' });
    const text = md.kind === 'download' ? md.text : '';
    expect(text).toContain('## Routines');
    expect(text).toContain('### Digest');
    expect(text).toContain('- Schedule: Every weekday at 08:15');
    expect(text).toMatch(/- \d{4}-\d\d-\d\d \d\d:\d\d UTC: completed — Digest done\./);

    const other = await start();
    await other.call('folders:create', { name: 'reports' });
    expect(await other.call('routines:import', { text: json.kind === 'download' ? json.text : '' })).toEqual({
      imported: 2,
    });
    const imported = await other.call('routines:list', {});
    expect(imported.map((r) => [r.name, r.paused, r.nextRunAt])).toEqual([
      ['Digest', true, null],
      ['Weekly review', true, null],
    ]);
    expect(imported[0].folderId).not.toBeNull();
    const runs = await other.call('routines:runs', { id: imported[0].id });
    expect(runs.map((r) => [r.status, r.detail, r.conversationId])).toEqual([['completed', 'Digest done.', null]]);

    const bad = await other.callError('routines:import', { text: '{"format":"stepwise.conversation"}' });
    expect(bad.message).toMatch(/^This is not a Stepwise routines export/);
    expect(await other.call('routines:list', {})).toHaveLength(2);
  });

  it('docs/schemas/stepwise.routines.v1.schema.json matches the zod schema', () => {
    const file = path.resolve(import.meta.dirname, '../../docs/schemas/stepwise.routines.v1.schema.json');
    const generated = { title: 'stepwise.routines.v1', ...z.toJSONSchema(RoutinesExport) };
    if (process.env.UPDATE_SCHEMAS) fs.writeFileSync(file, `${JSON.stringify(generated, null, 2)}\n`);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(generated);
  });
});

describe('routines on the command line', () => {
  it('lists routines and runs, and starts a run in the running app', async () => {
    const h = await start();
    const digest = await save(h, {});
    const listed = cli(['routines', 'list'], h.dataDir);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^NAME\s+SCHEDULE\s+NEXT RUN \(UTC\)\s+LAST RUN \(UTC\)\s+OUTCOME$/);
    expect(listed.stdout).toContain('Every weekday at 08:15');
    expect(cli(['routines', 'runs', 'digest'], h.dataDir).stdout).toBe('“Digest” has not run yet.\n');

    const started = h.waitForEvent('activity:added', (e) => e.event.routineId === digest.id);
    const asked = cli(['routines', 'run', 'Digest'], h.dataDir);
    expect(asked).toEqual({
      code: 0,
      stdout: 'Asked Stepwise to start a run of “Digest”. Its Activity says when it ends.\n',
      stderr: '',
    });
    expect((await started).event.kind).toBe('finished');
    const runs = cli(['routines', 'runs', 'Digest', '--json'], h.dataDir);
    expect(JSON.parse(runs.stdout)).toMatchObject([{ status: 'completed', detail: 'Digest done.' }]);

    const missing = cli(['routines', 'run', 'Nope'], h.dataDir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No routine named “Nope”');
  });

  it('says Stepwise is not running when it is not', async () => {
    const h = await start();
    await save(h, {});
    const dataDir = h.dataDir;
    await harnesses.pop()!.close();
    const asked = cli(['routines', 'run', 'Digest'], dataDir);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toBe('stepwise: Stepwise is not running. Start the app (or `npm run serve`) and try again.\n');
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('routine-run-request-'))).toEqual([]);
    expect(cli(['routines', 'list'], dataDir).stdout).toContain('Digest');
  });
});
