// Plan review's state is derived from other features' changes (the task list, the default
// mode in Settings): the core pushes `plan:state` on each, so a view never asks `plan:get`
// again on another feature's event.
import { describe, expect, it } from 'vitest';
import type { ChatHarness } from '../support/chatHarness';
import { chatCorePerTest } from '../support/chatHarness';
import type { ScriptedServer } from '../support/scriptedServer';

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest(
  (s, c) => {
    server = s;
    h = c;
  },
  { planReview: true },
);

const todo = (titles: string[]) => ({
  toolCalls: [
    {
      id: `plan_${titles.length}`,
      name: 'manage_todo_list',
      arguments: JSON.stringify({ todoList: titles.map((title, i) => ({ id: i + 1, title, status: 'pending' })) }),
    },
  ],
});

async function planned() {
  const { id } = await h.newConversation('Pushed plan state');
  await h.call('plan:setMode', { conversationId: id, mode: 'every_plan' });
  server.push(todo(['Collect the figures', 'Draft the summary']), { text: 'Here is the plan.' });
  await h.sendAndWait(id, 'Prepare the summary.');
  return id;
}

describe('plan:state pushed by the core', () => {
  it('follows the user’s edit of the list without a plan:get', async () => {
    const id = await planned();
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review', reviewing: true });
    const from = h.events.length;
    await h.call('tasks:clear', { conversationId: id });
    const pushed = await h.waitForEvent('plan:state', (s) => s.conversationId === id, { from });
    expect(pushed).toMatchObject({ phase: 'planning', reviewing: false });
    expect(pushed).toEqual(await h.call('plan:get', { conversationId: id }));
  });

  it('costs nothing with review off: a task edit pushes no plan state', async () => {
    const on = await planned();
    const { id: off } = await h.newConversation('Review off');
    await h.call('plan:setMode', { conversationId: off, mode: 'off' });
    await h.call('tasks:add', { conversationId: off, title: 'Water the plants' });
    const offStates = () => h.eventsOf('plan:state').filter((s) => s.conversationId === off).length;
    const before = offStates();
    const from = h.events.length;
    await h.call('tasks:add', { conversationId: off, title: 'Feed the cat' });
    // Pushes go out in order: once the reviewed conversation's arrives, the other's would have too.
    await h.call('tasks:add', { conversationId: on, title: 'Email the team' });
    await h.waitForEvent('plan:state', (s) => s.conversationId === on, { from });
    expect(offStates()).toBe(before);
  });

  it('tells a viewed conversation that follows the default when the default changes', async () => {
    const { id } = await h.newConversation('Follows the default');
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ mode: 'before_acting' });
    const from = h.events.length;
    await h.call('settings:update', { patch: { planReviewDefault: 'off' } });
    const pushed = await h.waitForEvent('plan:state', (s) => s.conversationId === id, { from });
    expect(pushed).toMatchObject({ mode: 'off', phase: 'off' });
  });
});
