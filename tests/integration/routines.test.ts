// Routines with the real core, SQLite, the scripted model (and assessor) and the real
// filesystem MCP server: a run works through a 3-task list on Autopilot with a tool the
// routine may use without asking; an unlisted tool holds the run and Activity says so; a
// restart after missed runs makes one catch-up run; a routine whose model was deleted
// fails and is paused; a routine deleted mid-run leaves its run stopped as a conversation.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_GONE } from '../../src/main/core/routines/runLauncher';
import type { Clock } from '../../src/main/core/routines/scheduler';
import type { RoutineDraft } from '../../src/shared/routinesContract';
import { plan, startAutopilotServer, verdict, type AutopilotServer } from '../support/autopilotServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { filesystem, writeMcpConfig } from '../support/mcpFixtures';
import { makeTempDir, removeDir } from '../support/tempDir';

let server: AutopilotServer | null = null;
let h: ChatHarness | null = null;
let root = '';

afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
  h = null;
  server = null;
  root = '';
});

async function start(options: { clock?: Clock; reuse?: boolean } = {}) {
  if (!options.reuse) {
    root = makeTempDir('stepwise-routines-');
    fs.mkdirSync(path.join(root, 'work'));
    writeMcpConfig(path.join(root, 'data'), { files: filesystem(path.join(root, 'work')) });
    server = await startAutopilotServer();
  }
  h = startChatCore(server!.server, { dataDir: path.join(root, 'data'), routineClock: options.clock });
  return h;
}

const routine = (patch: Partial<RoutineDraft> = {}): RoutineDraft => ({
  name: 'Nightly files',
  instructions: 'Write the three files.',
  schedule: { kind: 'daily', time: '03:00' },
  model: null,
  folderId: null,
  planReview: 'off',
  autopilot: true,
  tools: [],
  missed: 'run_once',
  ...patch,
});

async function save(harness: ChatHarness, draft: RoutineDraft) {
  const saved = await harness.call('routines:save', { id: null, routine: draft });
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  return saved.routine;
}

const write = (name: string) => ({
  toolCalls: [
    {
      name: 'mcp__files__write_file',
      arguments: JSON.stringify({ path: path.join(root, 'work', name), content: `${name} written` }),
    },
  ],
});

describe('routines', () => {
  it('a run works through a 3-task list on Autopilot with a pre-approved filesystem tool, and no prompt', async () => {
    const harness = await start();
    const titles = ['Write a.txt', 'Write b.txt', 'Write c.txt'];
    server!.model.push(
      plan(titles, ['in_progress', 'pending', 'pending']),
      write('a.txt'),
      { text: 'a.txt is written.' },
      write('b.txt'),
      { text: 'b.txt is written.' },
      write('c.txt'),
      { text: 'All three files are written.\nNothing else to do.' },
    );
    server!.assessor.push(verdict(true, 'a written'), verdict(true, 'b written'), verdict(true, 'c written'));
    const saved = await save(harness, routine({ tools: [{ server: 'files', tool: 'write_file' }] }));
    expect(saved).toMatchObject({ scheduleText: 'Every day at 03:00', paused: false, lastRunAt: null });

    const run = await harness.call('routines:runNow', { id: saved.id });
    const added = await harness.waitForEvent('activity:added', (e) => e.event.routineId === saved.id, {
      timeoutMs: 30_000,
    });
    expect(added.event).toMatchObject({ kind: 'finished', detail: 'All three files are written.' });
    expect(added.event.title).toMatch(/^Nightly files · \d{4}-\d\d-\d\d \d\d:\d\d$/);

    const [done] = await harness.call('routines:runs', { id: saved.id });
    expect(done).toMatchObject({ id: run.id, status: 'completed', conversationId: added.event.conversationId });
    const conversationId = done.conversationId!;
    expect(harness.core.tasks.get(conversationId)!.tasks.map((t) => t.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      expect(fs.readFileSync(path.join(root, 'work', name), 'utf8')).toBe(`${name} written`);
    }
    // Nobody was asked.
    expect(harness.eventsOf('approvals:changed').filter((e) => e.approvals.length > 0)).toEqual([]);
    const [listed] = await harness.call('routines:list', {});
    expect(listed).toMatchObject({ lastOutcome: 'completed' });
    expect(listed.lastRunAt).toBeGreaterThanOrEqual(done.startedAt!);
    expect(listed.lastRunAt).toBe(done.endedAt);
    const conversation = harness.core.conversations.get(conversationId)!;
    expect(conversation.title).toBe(added.event.title);
    // The grant is the routine's, in its runs only: another conversation is asked.
    server!.model.push(write('d.txt'));
    const other = await harness.newConversation('By hand');
    await harness.call('messages:send', { conversationId: other.id, content: 'Write d.txt.' });
    const asked = await harness.waitForEvent(
      'approvals:changed',
      (e) => e.conversationId === other.id && e.approvals.length > 0,
    );
    expect(asked.approvals[0].toolName).toBe('mcp__files__write_file');
  });

  it('an unlisted tool holds the run "waiting for you", and an Activity event says so', async () => {
    const harness = await start();
    server!.model.push(plan(['Write a.txt'], ['in_progress']), write('a.txt'));
    const saved = await save(harness, routine({ tools: [{ server: 'files', tool: 'edit_file' }] }));
    await harness.call('routines:runNow', { id: saved.id });
    const added = await harness.waitForEvent('activity:added', (e) => e.event.routineId === saved.id, {
      timeoutMs: 30_000,
    });
    expect(added.event).toMatchObject({
      kind: 'needs_you',
      detail: 'Waiting for you to approve mcp__files__write_file.',
      read: false,
    });
    expect(added.notify).toBe(true);
    const conversationId = added.event.conversationId!;
    expect(await harness.call('approvals:list', { conversationId })).toHaveLength(1);
    const [run] = await harness.call('routines:runs', { id: saved.id });
    expect(run).toMatchObject({ status: 'waiting', detail: 'Waiting for you to approve mcp__files__write_file.' });
    expect(fs.existsSync(path.join(root, 'work', 'a.txt'))).toBe(false);

    const inbox = await harness.call('activity:list', {});
    expect(inbox.unread).toBe(1);
    expect(inbox.events[0].id).toBe(added.event.id);
    expect(await harness.call('activity:markRead', { id: added.event.id })).toEqual({ unread: 0 });
  });

  it('after a restart, missed runs are recorded with their due time and make one catch-up run', async () => {
    let now = Date.parse('2026-03-02T10:00:00Z');
    const clock: Clock = { now: () => now, setTimer: () => () => {} };
    const first = await start({ clock });
    const hourly = await save(first, routine({ name: 'Hourly', schedule: { kind: 'hourly' } }));
    const skip = await save(first, routine({ name: 'Skipper', schedule: { kind: 'hourly' }, missed: 'skip' }));
    expect(hourly.nextRunAt).toBe(Date.parse('2026-03-02T11:00:00Z'));
    await first.close();

    // Closed for five and a half hours: five runs of each passed.
    now = Date.parse('2026-03-02T15:30:00Z');
    server!.model.push({ text: 'Caught up.' });
    const second = await start({ clock, reuse: true });
    const finished = await second.waitForEvent('activity:added', (e) => e.event.kind === 'finished', {
      timeoutMs: 30_000,
    });
    expect(finished.event).toMatchObject({ routineId: hourly.id, detail: 'Caught up.' });
    const runs = (await second.call('routines:runs', { id: hourly.id })).reverse();
    expect(runs.map((r) => [r.status, r.dueAt])).toEqual([
      ['missed', Date.parse('2026-03-02T15:00:00Z')],
      ['completed', Date.parse('2026-03-02T15:00:00Z')],
    ]);
    expect(runs[0].detail).toContain('5 runs due from');
    const skipped = await second.call('routines:runs', { id: skip.id });
    expect(skipped.map((r) => r.status)).toEqual(['missed']);
    const inbox = await second.call('activity:list', {});
    expect(
      inbox.events
        .filter((e) => e.kind === 'missed')
        .map((e) => e.title)
        .sort(),
    ).toEqual(['Hourly', 'Skipper']);
    const listed = await second.call('routines:list', {});
    expect(listed.find((r) => r.id === skip.id)!.nextRunAt).toBe(Date.parse('2026-03-02T16:00:00Z'));
    expect(server!.modelRequests()).toHaveLength(1);
  });

  it('a routine whose model was deleted fails with a clear reason and is paused; bad fields save nothing', async () => {
    const harness = await start();
    const refused = await harness.call('routines:save', {
      id: null,
      routine: routine({ name: ' ', schedule: { kind: 'cron', cron: '*/5 * * * * *' } }),
    });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.errors.map((e) => e.field)).toEqual(['name', 'cron']);
    expect(await harness.call('routines:list', {})).toEqual([]);

    const saved = await save(harness, routine({ model: { profileId: 'env', model: 'scripted-model' } }));
    harness.core.db.prepare("UPDATE routines SET model_profile = 'gone' WHERE id = ?").run(saved.id);
    await harness.call('routines:runNow', { id: saved.id });
    const failed = await harness.waitForEvent('activity:added', (e) => e.event.kind === 'failed');
    expect(failed.event.detail).toBe(MODEL_GONE);
    const [listed] = await harness.call('routines:list', {});
    expect(listed).toMatchObject({ paused: true, nextRunAt: null, lastOutcome: 'failed', lastDetail: MODEL_GONE });
  });

  it('a routine deleted while its run goes: the run is stopped and kept as a conversation', async () => {
    const harness = await start();
    server!.model.push(plan(['Write a.txt'], ['in_progress']), write('a.txt'));
    const saved = await save(harness, routine());
    await harness.call('routines:runNow', { id: saved.id });
    const waiting = await harness.waitForEvent('approvals:changed', (e) => e.approvals.length > 0, {
      timeoutMs: 30_000,
    });
    await harness.call('routines:delete', { id: saved.id });
    await harness.waitIdle(waiting.conversationId);
    expect(harness.core.chat.isRunning(waiting.conversationId)).toBe(false);
    expect(harness.core.conversations.get(waiting.conversationId)).toBeDefined();
    expect(await harness.call('routines:list', {})).toEqual([]);
    expect(fs.existsSync(path.join(root, 'work', 'a.txt'))).toBe(false);
  });

  it('a quit mid-run: the run is interrupted, never retried, and its conversation opens Interrupted', async () => {
    const first = await start();
    // A reply that streams for seconds: the quit comes while it does.
    server!.model.push(plan(['Write a.txt', 'Write b.txt'], ['in_progress', 'pending']), {
      text: 'Working on it. '.repeat(40),
      chunkSize: 4,
      chunkDelayMs: 50,
    });
    const saved = await save(first, routine());
    await first.call('routines:runNow', { id: saved.id });
    const streaming = await first.waitForEvent('messages:streamed', () => true, { timeoutMs: 30_000 });
    await first.close();

    const second = await start({ reuse: true });
    const [run] = await second.call('routines:runs', { id: saved.id });
    expect(run).toMatchObject({ status: 'interrupted', conversationId: streaming.conversationId });
    expect(await second.call('continuity:get', { conversationId: streaming.conversationId })).toEqual({
      conversationId: streaming.conversationId,
      kind: 'interrupted',
    });
    const [listed] = await second.call('routines:list', {});
    expect(listed.lastOutcome).toBe('interrupted');
    // Never retried on its own: no run was queued, nothing more was asked of the model.
    expect(second.core.routines.runningCount() + second.core.routines.queuedCount()).toBe(0);
    expect(await second.call('routines:runs', { id: saved.id })).toHaveLength(1);
  });

  it('a conversation that finishes in the background gets an Activity event; one on screen does not', async () => {
    const harness = await start();
    server!.model.push({ text: 'Here is the summary.\nDetails.' }, { text: 'Seen on screen.' }, { text: 'Again.' });
    const away = await harness.newConversation('Left alone');
    await harness.call('activity:focus', { conversationId: null });
    await harness.call('messages:send', { conversationId: away.id, content: 'Summarize.' });
    const added = await harness.waitForEvent('activity:added', (e) => e.event.conversationId === away.id);
    expect(added.event).toMatchObject({ kind: 'finished', title: 'Left alone', detail: 'Here is the summary.' });

    const watched = await harness.newConversation('On screen');
    await harness.call('activity:focus', { conversationId: watched.id });
    await harness.sendAndWait(watched.id, 'And this?');
    // The conversation in the background once more: its event comes after any the one on screen would have had.
    await harness.call('messages:send', { conversationId: away.id, content: 'Once more.' });
    await harness.waitForEvent('activity:added', (e) => e.event.detail === 'Again.');
    const inbox = await harness.call('activity:list', {});
    expect(inbox.events.map((e) => e.conversationId)).toEqual([away.id, away.id]);
  });
});
