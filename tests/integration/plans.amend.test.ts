// Changes to an approved plan: held as an amendment in "Every plan" (tools that act wait
// for Approve changes / Reject changes), taken at once with a "Plan changed" note in
// "Before tools that change things", and never for a status change.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanReviewMode } from '../../src/shared/planContract';
import { HELD_FOR_PLAN } from '../../src/shared/planText';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { makeTempDir, removeDir } from '../support/tempDir';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';

let server: ScriptedServer;
let h: ChatHarness;
let root = '';

afterEach(async () => {
  await h?.close();
  await server?.close();
  if (root) removeDir(root);
  root = '';
});

const NONE = { general: '', tasks: [] };
const todo = (id: string, tasks: Array<[string, string?]>) => ({
  id,
  name: 'manage_todo_list',
  arguments: JSON.stringify({
    todoList: tasks.map(([title, status], i) => ({ id: i + 1, title, status: status ?? 'pending' })),
  }),
});
const act = (id: string) => ({ id, name: 'mcp__test__env_secret', arguments: '{}' });
const shown = (id: string) => h.core.tasks.get(id)!.tasks.map((t) => ({ id: t.id, title: t.title }));
const result = (conversationId: string, callId: string) =>
  h.messages(conversationId).find((m) => m.toolCallId === callId)?.content;

/** A conversation whose two-task plan the user approved; the model's next turn is `next`. */
async function approved(mode: PlanReviewMode, ...next: Parameters<ScriptedServer['push']>) {
  root = makeTempDir('stepwise-plan-amend-');
  writeMcpConfig(path.join(root, 'data'), { test: testServer({ trusted: true }) });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir: path.join(root, 'data'), planReview: true });
  const { id } = await h.newConversation('Amend');
  await h.call('plan:setMode', { conversationId: id, mode });
  server.push({ toolCalls: [todo('p1', [['Collect the figures'], ['Draft the summary']])] }, { text: 'The plan.' });
  await h.sendAndWait(id, 'Prepare the summary.');
  server.push(...next);
  const from = h.events.length;
  await h.call('plan:approve', { conversationId: id, tasks: shown(id), comments: NONE });
  return { id, from };
}

describe('changes to an approved plan', () => {
  it('Every plan: an added task is held, and the acting call waits for Approve changes', async () => {
    const { id, from } = await approved(
      'every_plan',
      {
        toolCalls: [
          todo('p2', [['Collect the figures', 'in_progress'], ['Draft the summary'], ['Book a room']]),
          act('a1'),
        ],
      },
      { text: 'Done.' },
    );
    // The change is pushed first, then the call that waits for it.
    const held = await h.waitForEvent(
      'plan:state',
      (s) => s.conversationId === id && s.amendment !== null && s.calls.length > 0,
      { from },
    );
    expect(held.amendment!.after.map((t) => t.title)).toEqual([
      'Collect the figures',
      'Draft the summary',
      'Book a room',
    ]);
    expect(h.core.chat.isRunning(id)).toBe(true);
    expect(result(id, 'a1')).toBeUndefined();
    // Autopilot never answers it; the user does.
    // While held, the call is listed as waiting for the answer.
    expect(held.calls).toMatchObject([{ toolCallId: 'a1', state: 'waiting_for_change', agentId: 'main' }]);
    const state = await h.call('plan:answerAmendment', {
      conversationId: id,
      approve: true,
      tasks: held.amendment!.after,
      approvedRevision: 1,
    });
    expect(state).toMatchObject({ amendment: null, approved: { revision: 2 }, calls: [] });
    await h.waitIdle(id, from);
    expect(result(id, 'a1')).toBe('no token');
  });

  it('Every plan: Reject changes puts the approved plan back, then the call runs', async () => {
    const { id, from } = await approved(
      'every_plan',
      { toolCalls: [todo('p2', [['Collect all figures'], ['Draft the summary']]), act('a1')] },
      { text: 'Done.' },
    );
    const held = await h.waitForEvent('plan:state', (s) => s.conversationId === id && s.amendment !== null, {
      from,
    });
    await h.call('plan:answerAmendment', {
      conversationId: id,
      approve: false,
      tasks: held.amendment!.after,
      approvedRevision: 1,
    });
    await h.waitIdle(id, from);
    expect(shown(id).map((t) => t.title)).toEqual(['Collect the figures', 'Draft the summary']);
    expect(result(id, 'a1')).toBe('no token');
    expect((await h.call('plan:revisions', { conversationId: id })).map((r) => r.revision)).toEqual([1]);
  });

  it('a status change never needs approval', async () => {
    const { id, from } = await approved(
      'every_plan',
      {
        toolCalls: [
          todo('p2', [
            ['Collect the figures', 'completed'],
            ['Draft the summary', 'in_progress'],
          ]),
          act('a1'),
        ],
      },
      { text: 'Done.' },
    );
    await h.waitIdle(id, from);
    expect(result(id, 'a1')).toBe('no token');
    expect((await h.call('plan:get', { conversationId: id })).amendment).toBeNull();
  });

  it('Before tools that change things: the change applies, with a Plan changed note', async () => {
    const { id, from } = await approved(
      'before_acting',
      { toolCalls: [todo('p2', [['Collect the figures'], ['Draft the summary'], ['Book a room']]), act('a1')] },
      { text: 'Done.' },
    );
    await h.waitIdle(id, from);
    expect(result(id, 'a1')).toBe('no token');
    const note = h.messages(id).find((m) => m.kind === 'plan_changed')!;
    expect(note.role).toBe('system');
    expect(note.plumbing).toEqual({
      kind: 'plan_changed',
      revision: 2,
      changes: [{ kind: 'added', id: 3, title: 'Book a room' }],
      before: ['Collect the figures', 'Draft the summary'],
      after: ['Collect the figures', 'Draft the summary', 'Book a room'],
    });
    expect((await h.call('plan:get', { conversationId: id })).approved).toMatchObject({
      revision: 2,
      tasks: shown(id),
    });
    // Notes are for the user: the model never sees them.
    expect(JSON.stringify(server.streamRequests().at(-1)!.body.messages)).not.toContain('Book a room” (revision');
  });

  it('a plan a turn finished covers no work added to it on a later request', async () => {
    const { id, from } = await approved(
      'before_acting',
      {
        toolCalls: [
          todo('p2', [
            ['Collect the figures', 'completed'],
            ['Draft the summary', 'completed'],
          ]),
        ],
      },
      { text: 'All done.' },
    );
    await h.waitIdle(id, from);
    expect((await h.call('plan:get', { conversationId: id })).phase).toBe('planning');
    // The model extends the finished list instead of starting a new one, and tries to act.
    server.push(
      {
        toolCalls: [
          todo('p3', [['Collect the figures', 'completed'], ['Draft the summary', 'completed'], ['Email the team']]),
          act('a2'),
        ],
      },
      { text: 'Here is the extended plan.' },
    );
    await h.sendAndWait(id, 'Now email it to the team.');
    expect(result(id, 'a2')).toBe(HELD_FOR_PLAN);
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({
      phase: 'review',
      approved: null,
      reviewing: true,
    });
    expect(h.messages(id).some((m) => m.kind === 'plan_changed')).toBe(false);
    server.push({ text: 'Emailing.' });
    const at = h.events.length;
    const state = await h.call('plan:approve', { conversationId: id, tasks: shown(id), comments: NONE });
    await h.waitIdle(id, at);
    expect(state).toMatchObject({ phase: 'approved', approved: { revision: 2, tasks: shown(id) } });
  });
});
