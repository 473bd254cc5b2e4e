// Autopilot gives way: Stop and the user's own message drop a pending check or
// continuation, switching it off does too, and it waits while a worker runs a task.
import { describe, expect, it } from 'vitest';
import { updateOp } from '../../src/main/core/tasks/taskOps';
import type { Who } from '../../src/main/core/tasks/taskService';
import type { Turn } from '../support/scriptedServer';
import {
  gate,
  plan,
  verdict,
  type AutopilotServer,
  autopilotPerTest,
  autopilotConversation as autopilotOn,
  statuses as statusesOf,
  autoMessages as autoMessagesOf,
} from '../support/autopilotServer';
import { type ChatHarness } from '../support/chatHarness';

const STEPS = ['Step one', 'Step two', 'Step three'];
const P = 'pending';
const I = 'in_progress';
const C = 'completed';

let s: AutopilotServer;
let h: ChatHarness;
autopilotPerTest((server, harness) => {
  s = server;
  h = harness;
});

const autopilotConversation = () => autopilotOn(h);
const statuses = (id: string) => statusesOf(h, id);
const autoMessages = (id: string) => autoMessagesOf(h, id);
const assessorChanges = () =>
  (h.core.db.prepare("SELECT COUNT(*) AS n FROM task_events WHERE actor = 'assessor'").get() as { n: number }).n;
/** Lets queued callbacks (turn-end hooks, aborted requests) run. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** An assessor turn that answers only when the test opens the gate; `arrived` resolves when asked. */
function lateAssessor(answer: Turn) {
  const arrived = gate<void>();
  const release = gate<void>();
  s.assessor.push(async () => {
    arrived.open();
    await release.promise;
    return answer;
  });
  return { arrived: arrived.promise, release: () => release.open() };
}

describe('Stop', () => {
  it('during the check: the check is dropped and its late "done" changes nothing', async () => {
    const id = await autopilotConversation();
    s.model.push(plan(STEPS.slice(0, 2), [I, P]), { text: 'Step one is finished.' });
    const check = lateAssessor(verdict(true, 'Finished.'));
    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    await check.arrived;

    const status = await h.call('chat:stop', { conversationId: id });
    expect(status.running).toBe(false);
    check.release();
    await settle();
    expect(statuses(id)).toEqual([I, P]);
    expect(autoMessages(id)).toEqual([]);
    expect(assessorChanges()).toBe(0);
    expect(h.eventsOf('autopilot:paused')).toEqual([]);

    // Autopilot is still on: the user's next message starts over from a fresh check.
    s.model.push({ text: 'Still on step one.' });
    s.assessor.push(verdict(false, 'Not yet.'));
    const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id);
    await h.call('messages:send', { conversationId: id, content: 'Keep going.' });
    expect((await paused).reason).toContain('is not done');
    expect(statuses(id)).toEqual([I, P]);
    expect(s.assessorRequests()).toHaveLength(2);
  });

  it('during an automatic continuation: the reply stops and Autopilot does not go on', async () => {
    const id = await autopilotConversation();
    s.model.push(
      plan(STEPS, [I, P, P]),
      { text: 'Step one is finished.' },
      { text: 'Working on step two '.repeat(40), chunkSize: 4, chunkDelayMs: 20 },
    );
    s.assessor.push(verdict(true, 'Finished.'), verdict(true, 'Should never be asked.'));
    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    // The continued reply is streaming.
    await h.waitForEvent(
      'messages:streamed',
      (e) => e.conversationId === id && !!e.content && e.content.at + e.content.text.length > 8,
    );
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two']);

    await h.call('chat:stop', { conversationId: id });
    await settle();
    const last = h.messages(id).at(-1)!;
    expect([last.role, last.status]).toEqual(['assistant', 'stopped']);
    expect(s.assessorRequests()).toHaveLength(1);
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two']);
    expect(statuses(id)).toEqual([C, I, P]);
    expect(h.core.chat.isRunning(id)).toBe(false);
  });
});

describe('the user takes over', () => {
  it('a message of their own drops the pending continuation and restarts the step count', async () => {
    const id = await autopilotConversation();
    s.model.push(
      plan(STEPS, [I, P, P]),
      { text: 'Step one is finished.' },
      { text: 'Step two is finished.' },
      { text: 'Sure, docs too.' },
    );
    s.assessor.push(verdict(true, 'Finished.'));
    const check = lateAssessor(verdict(true, 'Finished too.'));
    s.assessor.push(verdict(false, 'The docs are not written.'));

    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    await check.arrived;
    expect(await h.call('autopilot:get', { conversationId: id })).toMatchObject({ steps: 1 });

    const from = h.events.length;
    await h.call('messages:send', { conversationId: id, content: 'Also write the docs.' });
    expect(h.events.slice(from).find((e) => e.event === 'autopilot:state')?.payload).toMatchObject({
      steps: 0,
      pausedReason: null,
    });

    // The user's turn is checked afresh while the dropped check still waits for its answer.
    const paused = await h.waitForEvent('autopilot:paused', (e) => e.conversationId === id, { from });
    expect(paused.reason).toBe('Autopilot paused: task 2 “Step two” is not done — The docs are not written.');
    check.release();
    await settle();
    // The late "done" for step two was never applied; only the first check changed tasks.
    expect(statuses(id)).toEqual([C, I, P]);
    expect(assessorChanges()).toBe(2);
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two']);
    expect(await h.call('autopilot:get', { conversationId: id })).toMatchObject({ steps: 0 });
    // The third check judged the user's turn.
    expect(s.assessorRequests()[2].body.messages[1].content).toContain('Sure, docs too.');
  });

  it('switching Autopilot off mid-check drops the continuation', async () => {
    const id = await autopilotConversation();
    s.model.push(plan(STEPS.slice(0, 2), [I, P]), { text: 'Step one is finished.' });
    const check = lateAssessor(verdict(true, 'Finished.'));
    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    await check.arrived;
    expect(await h.call('autopilot:set', { conversationId: id, enabled: false })).toMatchObject({
      enabled: false,
      pausedReason: null,
    });
    check.release();
    await settle();
    expect(statuses(id)).toEqual([I, P]);
    expect(autoMessages(id)).toEqual([]);
    expect(s.modelRequests()).toHaveLength(2);
  });
});

describe('workers', () => {
  it('waits while a worker runs the current task, then continues once the main agent has the result', async () => {
    const id = await autopilotConversation();
    const worker: Who = { actor: 'worker-1', owner: 'worker-1', claims: true };
    const claim = (status: string) => {
      const changed = h.core.tasks.change(id, worker, updateOp({ taskId: 1, status }, worker));
      expect(changed.ok).toBe(true);
    };
    s.model.push(plan(STEPS.slice(0, 2), [P, P]), () => {
      claim('in_progress');
      return { text: 'Worker 1 is on step one.' };
    });
    await h.sendAndWait(id, 'Go.');
    await settle();
    expect(h.core.tasks.get(id)!.tasks.map((t) => [t.status, t.owner])).toEqual([
      [I, 'worker-1'],
      [P, 'main'],
    ]);
    expect(s.assessorRequests()).toHaveLength(0);
    expect(autoMessages(id)).toEqual([]);
    expect(h.eventsOf('autopilot:paused')).toEqual([]);

    // The worker finishes its task; its result resumes the main agent (as the worker manager does).
    claim('completed');
    s.model.push({ text: 'Worker 1 finished step one.' }, { text: 'Step two is finished.' });
    s.assessor.push(verdict(true, 'Finished.'));
    const continuing = h.waitForEvent('autopilot:continuing', (e) => e.conversationId === id);
    void h.core.chat.start(id);
    expect(await continuing).toEqual({ conversationId: id, next: 'Step two' });
    await h.waitForEvent(
      'tasks:changed',
      (e) => e.conversationId === id && e.list?.tasks.every((t) => t.status === C) === true,
    );
    // Step two was started without a check (nothing was in progress), then checked once.
    expect(s.assessorRequests()).toHaveLength(1);
    expect(s.assessorRequests()[0].body.messages[1].content).toContain('Current task (2): Step two');
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two']);
  });
});
