// Autopilot through the real core: the scripted server plays the model and the assessor;
// task lists, messages and events are the real ones in SQLite.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ASSESSOR_SYSTEM } from '../../src/main/core/autopilot/assessorPrompt';
import type { AutopilotState } from '../../src/shared/agents';
import type { Message } from '../../src/shared/domain';
import {
  plan,
  verdict,
  type AutopilotServer,
  type ScriptedTurn,
  autopilotPerTest,
  autopilotConversation as autopilotOn,
  statuses as statusesOf,
  autoMessages as autoMessagesOf,
} from '../support/autopilotServer';
import { TEST_KEY, type ChatHarness } from '../support/chatHarness';
import { times } from '../support/scriptedServer';
import { dumpTaskTables } from '../support/taskFixture';

const STEPS = ['Step one', 'Step two', 'Step three', 'Step four'];
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
/** The task events the assessor wrote, oldest first. */
const assessorEvents = () =>
  (
    h.core.db.prepare("SELECT kind, after FROM task_events WHERE actor = 'assessor' ORDER BY id").all() as Array<{
      kind: string;
      after: string;
    }>
  ).map((e) => ({ kind: e.kind, after: JSON.parse(e.after) as unknown }));

/** Resolves once `done()` holds (polled; the chain of turns and checks runs by itself). */
function until(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (done()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error('condition not reached'));
      }
    }, 10);
  });
}

describe('a finished turn with open work', () => {
  it('done → the task is completed, the next one started, and NEXT_TODO continues the conversation', async () => {
    const id = await autopilotConversation();
    s.model.push(
      plan(STEPS.slice(0, 3), [I, P, P]),
      { text: 'Step one is finished.' },
      { text: 'Working on step two; the tests still fail.' },
    );
    s.assessor.push(verdict(true, 'Step one is finished.'), verdict(false, 'The tests of step two still fail.'));

    const continuing = h.waitForEvent('autopilot:continuing', (e) => e.conversationId === id);
    const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id);
    await h.call('messages:send', { conversationId: id, content: 'Do the three steps.' });
    expect(await continuing).toEqual({ conversationId: id, next: 'Step two' });
    expect((await paused).reason).toBe(
      'Autopilot paused: task 2 “Step two” is not done — The tests of step two still fail.',
    );
    await until(() => !h.core.chat.isRunning(id));

    expect(statuses(id)).toEqual([C, I, P]);
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two']);
    const auto = h.messages(id).find((m) => m.origin === 'auto') as Message;
    expect(auto.role).toBe('user');
    // The model got the automatic message as the user turn of its next request.
    expect(s.modelRequests()[2].body.messages.at(-1)).toEqual({ role: 'user', content: 'NEXT_TODO: Step two' });
    // Both task changes are the assessor's, in one change.
    expect(assessorEvents()).toEqual([
      { kind: 'updated', after: { id: 1, status: 'completed' } },
      { kind: 'updated', after: { id: 2, status: 'in_progress' } },
    ]);

    // What the assessor was asked: JSON mode, no streaming, the task and the last turn.
    const [first, second] = s.assessorRequests();
    expect(first.body.stream).toBe(false);
    expect(first.body.response_format).toEqual({ type: 'json_object' });
    expect(first.body.messages[0]).toEqual({ role: 'system', content: ASSESSOR_SYSTEM });
    expect(first.body.messages[1].content).toBe(
      'Current task (1): Step one\n\nThe assistant\'s last turn:\nTool calls: manage_todo_list\nLast text:\n"""\nStep one is finished.\n"""',
    );
    expect(second.body.messages[1].content).toContain('Current task (2): Step two');
    expect(second.body.messages[1].content).toContain('Tool calls: none');

    const state = await h.call('autopilot:get', { conversationId: id });
    expect(state).toEqual({
      conversationId: id,
      enabled: true,
      steps: 1,
      cap: 5,
      pausedReason: (await paused).reason,
      checking: false,
      continuing: null,
    });
    expect(h.eventsOf('autopilot:state').at(-1)).toEqual(state);
  });

  it('not done → stops: no task changes, no automatic message, no further request', async () => {
    const id = await autopilotConversation();
    s.model.push(plan(STEPS.slice(0, 2), [I, P]), { text: 'I started step one.' });
    let before: unknown = null;
    s.assessor.push(() => {
      before = dumpTaskTables(h.core.db);
      return verdict(false, 'Only started.');
    });
    const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id);
    await h.sendAndWait(id, 'Two steps please.');
    expect((await paused).reason).toBe('Autopilot paused: task 1 “Step one” is not done — Only started.');
    expect(dumpTaskTables(h.core.db)).toEqual(before);
    expect(autoMessages(id)).toEqual([]);
    expect(s.modelRequests()).toHaveLength(2);
  });

  it('with nothing in progress but pending work, it skips the assessor and starts the next task', async () => {
    const id = await autopilotConversation();
    s.model.push(
      plan(STEPS.slice(0, 2), [C, P]),
      { text: 'Step one done, ticked it off.' },
      { text: 'Step two done.' },
    );
    s.assessor.push(verdict(true, 'Step two is done.'));
    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    await until(() => statuses(id).every((st) => st === C) && !h.core.chat.isRunning(id));
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two']);
    expect(s.assessorRequests()).toHaveLength(1);
    expect(s.assessorRequests()[0].body.messages[1].content).toContain('Current task (2): Step two');
    // All done: nothing more happens.
    expect(s.modelRequests()).toHaveLength(3);
    expect(h.eventsOf('autopilot:paused')).toEqual([]);
  });

  it('does nothing while switched off, and the toggle is kept in the conversation', async () => {
    const conversation = await h.newConversation('Off');
    expect(await h.call('autopilot:get', { conversationId: conversation.id })).toMatchObject({
      enabled: false,
      steps: 0,
    });
    s.model.push(plan(STEPS.slice(0, 2), [I, P]), { text: 'Step one done.' });
    await h.sendAndWait(conversation.id, 'Go.');
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.assessorRequests()).toHaveLength(0);
    expect(autoMessages(conversation.id)).toEqual([]);

    // The default setting applies to conversations without their own choice.
    await h.call('settings:update', { patch: { autopilotDefault: true, autopilotCap: 7 } });
    expect(await h.call('autopilot:get', { conversationId: conversation.id })).toMatchObject({ enabled: true, cap: 7 });
    await h.call('autopilot:set', { conversationId: conversation.id, enabled: false });
    expect(await h.call('autopilot:get', { conversationId: conversation.id })).toMatchObject({ enabled: false });
    expect(await h.callError('autopilot:continue', { conversationId: conversation.id })).toMatchObject({
      code: 'conflict',
    });
    expect(await h.callError('autopilot:get', { conversationId: randomUUID() })).toMatchObject({ code: 'not_found' });
  });
});

describe('a doubtful verdict pauses and changes nothing', () => {
  async function pausedWith(assessorTurns: ScriptedTurn[]) {
    const id = await autopilotConversation();
    s.model.push(plan(STEPS.slice(0, 2), [I, P]), { text: 'Step one is finished.' });
    let before: unknown = null;
    s.assessor.push(...assessorTurns);
    // The tables as they were when the check began.
    h.core.bus.subscribe((event) => {
      if (event === 'chat:status' && before === null && !h.core.chat.isRunning(id)) before = dumpTaskTables(h.core.db);
    });
    const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id);
    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    const { reason } = await paused;
    expect(dumpTaskTables(h.core.db)).toEqual(before);
    expect(statuses(id)).toEqual([I, P]);
    expect(autoMessages(id)).toEqual([]);
    expect((await h.call('autopilot:get', { conversationId: id })).pausedReason).toBe(reason);
    return reason;
  }

  it('garbage instead of JSON', async () => {
    expect(await pausedWith([{ text: 'Looks finished to me!' }])).toBe(
      'Autopilot paused: the assessor did not answer with JSON.',
    );
  });

  it('malformed JSON and JSON without a boolean "done"', async () => {
    expect(await pausedWith([{ text: '{"done": yes, "reason": "sure"}' }])).toBe(
      'Autopilot paused: the assessor answered with malformed JSON.',
    );
  });

  it('"done" as a string is not a verdict', async () => {
    expect(await pausedWith([{ text: '{"done": "true", "reason": "sure"}' }])).toBe(
      'Autopilot paused: the assessor answer lacks a boolean "done" and a "reason".',
    );
  });

  it('an HTTP error (after the SDK retries)', async () => {
    const reason = await pausedWith(times(3, { status: 500 }));
    expect(reason).toMatch(
      /^Autopilot paused: the assessor request failed: 127\.0\.0\.1:\d+ had a server error \(500\)/,
    );
    expect(s.assessorRequests()).toHaveLength(3);
  });

  it('a server error text that echoes the API key never shows it', async () => {
    const reason = await pausedWith([{ status: 422, errorMessage: `bad request for key ${TEST_KEY}` }]);
    expect(reason).toContain('rejected the request (422)');
    expect(reason).not.toContain(TEST_KEY);
    expect(h.logs.join('\n')).not.toContain(TEST_KEY);
  });
});

describe('JSON mode', () => {
  it('a server that rejects response_format (400) is asked again without it', async () => {
    const id = await autopilotConversation();
    s.model.push(plan(STEPS.slice(0, 2), [I, P]), { text: 'Step one is finished.' }, { text: 'Step two is finished.' });
    s.assessor.push(
      { status: 400, errorMessage: 'Unrecognized request argument supplied: response_format' },
      { text: 'Verdict:\n```json\n{"done": true, "reason": "It is finished."}\n```' },
      { status: 400, errorMessage: 'still no JSON mode' },
      { status: 400, errorMessage: 'a real bad request' },
    );
    const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id);
    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    // The first check passed on the retry; the second failed twice and paused.
    expect((await paused).reason).toMatch(
      /^Autopilot paused: the assessor request failed: .*rejected the request \(400\): a real bad request\.$/,
    );
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two']);
    expect(s.assessorRequests().map((r) => r.body.response_format ?? null)).toEqual([
      { type: 'json_object' },
      null,
      { type: 'json_object' },
      null,
    ]);
    expect(statuses(id)).toEqual([C, I]);
  });
});

describe('the step cap', () => {
  it('pauses after the cap, and Continue resets the count and carries on', async () => {
    await h.call('settings:update', { patch: { autopilotCap: 2 } });
    const id = await autopilotConversation();
    s.model.push(
      plan(STEPS, [I, P, P, P]),
      { text: 'One done.' },
      { text: 'Two done.' },
      { text: 'Three done.' },
      { text: 'Four done.' },
    );
    s.assessor.push(...STEPS.map(() => verdict(true, 'Finished.')));

    const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id);
    await h.call('messages:send', { conversationId: id, content: 'All four.' });
    expect((await paused).reason).toBe('Autopilot paused after 2 steps');
    await until(() => !h.core.chat.isRunning(id));
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two', 'NEXT_TODO: Step three']);
    // At the cap the third turn was not assessed yet.
    expect(s.assessorRequests()).toHaveLength(2);
    expect(statuses(id)).toEqual([C, C, I, P]);
    expect(await h.call('autopilot:get', { conversationId: id })).toEqual({
      conversationId: id,
      enabled: true,
      steps: 2,
      cap: 2,
      pausedReason: 'Autopilot paused after 2 steps',
      checking: false,
      continuing: null,
    });

    const from = h.events.length;
    const resumed = await h.call('autopilot:continue', { conversationId: id });
    expect(resumed.pausedReason).toBeNull();
    await until(() => statuses(id).every((st) => st === C) && !h.core.chat.isRunning(id));
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step two', 'NEXT_TODO: Step three', 'NEXT_TODO: Step four']);
    expect(s.assessorRequests()).toHaveLength(4);
    expect(
      h.events
        .slice(from)
        .filter((e) => e.event === 'autopilot:continuing')
        .map((e) => e.payload),
    ).toEqual([{ conversationId: id, next: 'Step four' }]);
    // The line the user sees, as pushed (Continue clears the pause first): each step's own, straight from checking to
    // continuing, and nothing once Autopilot has ended.
    const lines = h.events
      .slice(from)
      .filter((e) => e.event === 'autopilot:state')
      .map(({ payload }) => payload as AutopilotState)
      .map((st) =>
        st.checking ? 'checking' : st.continuing ? `Continuing: ${st.continuing}` : (st.pausedReason ?? null),
      );
    expect(lines.filter((line, i) => line !== lines[i - 1])).toEqual([
      null,
      'checking',
      'Continuing: Step four',
      'checking',
      null,
    ]);
    expect(await h.call('autopilot:get', { conversationId: id })).toMatchObject({ steps: 1, pausedReason: null });

    // The user's own message starts the count again.
    await h.sendAndWait(id, 'Thanks!');
    expect(await h.call('autopilot:get', { conversationId: id })).toMatchObject({ steps: 0 });
  });

  it('Continue after "not done" lets the model carry on with the same task', async () => {
    const id = await autopilotConversation();
    s.model.push(plan(STEPS.slice(0, 2), [I, P]), { text: 'Half of step one.' }, { text: 'Rest of step one.' });
    s.assessor.push(verdict(false, 'Half done.'), verdict(false, 'Still checking.'));
    const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id);
    await h.call('messages:send', { conversationId: id, content: 'Go.' });
    await paused;
    await until(() => !h.core.chat.isRunning(id));
    const from = h.events.length;
    await h.call('autopilot:continue', { conversationId: id });
    await h.waitForEvent('autopilot:paused', (e) => e.conversationId === id, { from });
    expect(autoMessages(id)).toEqual(['NEXT_TODO: Step one']);
    expect(statuses(id)).toEqual([I, P]);
  });
});
