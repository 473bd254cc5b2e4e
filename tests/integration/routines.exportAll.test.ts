// The app's export of every task list ("Export all task lists…") carries the routines with
// their run history: JSON in a `routines` field (valid against the tasks schema), Markdown
// in a "Routines" section; importing that JSON file restores the routines paused.
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { TasksExport } from '../../src/shared/exportFormat';
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

async function start() {
  server ??= await startScriptedServer({
    script: (request) => (request.body.stream ? { text: 'Digest done.' } : { text: 'Title' }),
  });
  const dir = makeTempDir('stepwise-routines-all-');
  dirs.push(dir);
  const h = startChatCore(server, { dataDir: path.join(dir, 'data') });
  harnesses.push(h);
  return h;
}

const draft: RoutineDraft = {
  name: 'Digest',
  instructions: 'Write the digest.',
  schedule: { kind: 'daily', time: '07:30' },
  model: null,
  folderId: null,
  planReview: 'off',
  autopilot: false,
  tools: [],
  missed: 'skip',
};

async function exported(h: ChatHarness, format: 'json' | 'md'): Promise<string> {
  const result = await h.call('export:tasks', { format, scope: 'all' });
  if (result.kind !== 'download') throw new Error(`expected a download, got ${result.kind}`);
  return result.text;
}

it('export all carries routines with their runs, and its JSON imports them paused', async () => {
  const h = await start();
  const saved = await h.call('routines:save', { id: null, routine: draft });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  await h.call('routines:runNow', { id: saved.routine.id });
  await h.waitForEvent('activity:added', (e) => e.event.routineId === saved.routine.id);

  const json = await exported(h, 'json');
  const file = TasksExport.parse(JSON.parse(json));
  expect(file.routines?.map((r) => [r.name, r.scheduleText, r.paused])).toEqual([
    ['Digest', 'Every day at 07:30', false],
  ]);
  expect(file.routines?.[0].runs).toMatchObject([{ status: 'completed', detail: 'Digest done.', dueAt: null }]);

  const md = await exported(h, 'md');
  expect(md).toContain('\n## Routines\n');
  expect(md).toContain('### Digest');
  expect(md).toMatch(/- \d{4}-\d\d-\d\d \d\d:\d\d UTC: completed — Digest done\./);

  const fresh = await start();
  expect(await fresh.call('routines:import', { text: json })).toEqual({ imported: 1 });
  const routines = await fresh.call('routines:list', {});
  expect(routines.map((r) => [r.name, r.paused, r.nextRunAt])).toEqual([['Digest', true, null]]);
  const runs = await fresh.call('routines:runs', { id: routines[0].id });
  expect(runs.map((r) => [r.status, r.detail, r.conversationId])).toEqual([['completed', 'Digest done.', null]]);
});

it('a task export without routines imports nothing, and says why', async () => {
  const h = await start();
  const json = await exported(h, 'json');
  expect(JSON.parse(json)).not.toHaveProperty('routines');
  const refused = await h.callError('routines:import', { text: json });
  expect(refused.message).toMatch(/holds no routines/);
  expect(await h.call('routines:list', {})).toEqual([]);
});
