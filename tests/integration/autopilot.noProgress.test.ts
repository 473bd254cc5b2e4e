// Autopilot that does not spin: two steps in a row on one task that make no tool call and
// change no task's status pause it with "No progress on task N", without asking the
// assessor again. A step that does something starts the count over.
import { describe, expect, it } from 'vitest';
import {
  autoMessages,
  autopilotConversation,
  autopilotPerTest,
  plan,
  verdict,
  type AutopilotServer,
} from '../support/autopilotServer';
import type { ChatHarness } from '../support/chatHarness';

const STEPS = ['Step one', 'Step two'];

let s: AutopilotServer;
let h: ChatHarness;
autopilotPerTest((server, harness) => {
  s = server;
  h = harness;
});

async function pausedAfter(id: string, action: () => Promise<unknown>) {
  const from = h.events.length;
  const paused = h.waitForEvent('autopilot:paused', (e) => e.conversationId === id, { from });
  await action();
  return (await paused).reason;
}

describe('no progress', () => {
  it('two idle steps on the same task pause Autopilot with "No progress on task 1"', async () => {
    const id = await autopilotConversation(h);
    s.model.push(
      plan(STEPS, ['in_progress', 'pending']),
      { text: 'Started step one.' },
      { text: 'Thinking about step one.' },
      { text: 'Still thinking.' },
    );
    s.assessor.push(verdict(false, 'Only started.'), verdict(false, 'Nothing done yet.'));

    expect(
      await pausedAfter(id, () => h.call('messages:send', { conversationId: id, content: 'Two steps.' })),
    ).toContain('is not done');
    // Continue after "not done": one idle step, and the assessor still decides.
    expect(await pausedAfter(id, () => h.call('autopilot:continue', { conversationId: id }))).toContain('is not done');
    // A second idle step on task 1: no third check, a pause that says why.
    const reason = await pausedAfter(id, () => h.call('autopilot:continue', { conversationId: id }));
    expect(reason).toMatch(/^No progress on task 1 “Step one”/);
    expect(s.assessorRequests()).toHaveLength(2);
    expect(autoMessages(h, id)).toEqual(['NEXT_TODO: Step one', 'NEXT_TODO: Step one']);
    expect((await h.call('autopilot:get', { conversationId: id })).pausedReason).toBe(reason);
  });

  it('a step that calls a tool starts the count over', async () => {
    const id = await autopilotConversation(h);
    s.model.push(
      plan(STEPS, ['in_progress', 'pending']),
      { text: 'Started step one.' },
      { text: 'Thinking about step one.' },
      { toolCalls: [{ name: 'get_current_time', arguments: '{}' }] },
      { text: 'Checked the time.' },
      { text: 'Thinking again.' },
    );
    s.assessor.push(
      verdict(false, 'Only started.'),
      verdict(false, 'Not yet.'),
      verdict(false, 'Still not.'),
      verdict(false, 'No.'),
    );
    await pausedAfter(id, () => h.call('messages:send', { conversationId: id, content: 'Two steps.' }));
    await pausedAfter(id, () => h.call('autopilot:continue', { conversationId: id }));
    expect(await pausedAfter(id, () => h.call('autopilot:continue', { conversationId: id }))).toContain('is not done');
    expect(await pausedAfter(id, () => h.call('autopilot:continue', { conversationId: id }))).toContain('is not done');
    expect(s.assessorRequests()).toHaveLength(4);
  });
});
