// The review card's calls with a real core and the scripted model: Request changes sends
// the user's edits and comments as one message, revisions are stored, a stale approval is
// refused with nothing stored, Stop keeps the unapproved plan, and no list means no review.
import { describe, expect, it } from 'vitest';
import type { ChatHarness } from '../support/chatHarness';
import { chatCorePerTest } from '../support/chatHarness';
import type { ScriptedServer } from '../support/scriptedServer';
import { ConversationExport } from '../../src/shared/exportFormat';
import { modelText } from '../../src/shared/messageKinds';

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest(
  (s, c) => {
    server = s;
    h = c;
  },
  { planReview: true },
);

const NONE = { general: '', tasks: [] };
const todo = (titles: string[]) => ({
  toolCalls: [
    {
      id: `plan_${titles.length}_${titles[0].length}`,
      name: 'manage_todo_list',
      arguments: JSON.stringify({ todoList: titles.map((title, i) => ({ id: i + 1, title, status: 'pending' })) }),
    },
  ],
});
const shown = (id: string) => h.core.tasks.get(id)!.tasks.map((t) => ({ id: t.id, title: t.title }));

async function planned(titles = ['Collect the figures', 'Draft the summary', 'Email the team']) {
  const { id } = await h.newConversation('Review');
  server.push(todo(titles), { text: 'Here is the plan.' });
  await h.sendAndWait(id, 'Prepare the quarterly summary.');
  return id;
}

describe('reviewing a plan', () => {
  it('Request changes carries the edits and comments; the revised plan is approved as revision 2', async () => {
    const id = await planned();
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review', revision: 1 });
    // The user's edits go through the header's own calls.
    await h.call('tasks:update', { conversationId: id, taskId: 2, patch: { title: 'Draft a one-page summary' } });
    await h.call('tasks:delete', { conversationId: id, taskId: 3 });

    server.push(todo(['Collect the Q3 figures', 'Draft a one-page summary']), { text: 'Revised.' });
    const from = h.events.length;
    await h.call('plan:requestChanges', {
      conversationId: id,
      tasks: shown(id),
      comments: { general: 'Keep it short.', tasks: [{ taskId: 1, text: 'Only Q3, please.' }] },
    });
    await h.waitIdle(id, from);
    const request = server.streamRequests()[2].body.messages.findLast((m) => m.role === 'user')!;
    const text = String(request.content);
    expect(text.startsWith('PLAN_CHANGES_REQUESTED:\n')).toBe(true);
    expect(text).toContain('Renamed task 2 from “Draft the summary” to “Draft a one-page summary”');
    expect(text).toContain('Deleted task 3 “Email the team”');
    expect(text).toContain('On task 1 “Collect the figures”: Only Q3, please.');
    expect(text).toContain('On the plan: Keep it short.');

    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review', revision: 2 });
    server.push({ text: 'Starting with the figures.' });
    const at = h.events.length;
    const state = await h.call('plan:approve', { conversationId: id, tasks: shown(id), comments: NONE });
    await h.waitIdle(id, at);
    expect(state.approved).toMatchObject({
      revision: 2,
      tasks: [{ id: 1, title: 'Collect the Q3 figures' }, { id: 2 }],
    });
    const revisions = await h.call('plan:revisions', { conversationId: id });
    expect(revisions.map((r) => [r.revision, r.approvedAt !== null, r.tasks.length, r.comments.tasks.length])).toEqual([
      [1, false, 2, 1],
      [2, true, 2, 0],
    ]);
    const quiet = h.messages(id).find((m) => m.origin === 'auto')!;
    expect(quiet.plumbing).toMatchObject({ kind: 'plan_approved', revision: 2, taskCount: 2 });
    // The model reads the approval as before message kinds; the stored text is empty.
    expect(quiet.content).toBe('');
    expect(modelText(quiet)).toMatch(/^PLAN_APPROVED: revision 2 · 2 tasks\n/);
    expect(modelText(quiet)).toContain('starting with task 1 “Collect the Q3 figures”');
  });

  it('Approve and run on Autopilot switches Autopilot on for the conversation', async () => {
    const id = await planned();
    expect((await h.call('autopilot:get', { conversationId: id })).enabled).toBe(false);
    server.push({ text: 'Starting.' });
    const from = h.events.length;
    await h.call('plan:approve', { conversationId: id, tasks: shown(id), comments: NONE, autopilot: true });
    await h.waitIdle(id, from);
    expect((await h.call('autopilot:get', { conversationId: id })).enabled).toBe(true);
  });

  it('approving a plan that changed since the card was drawn approves nothing', async () => {
    const id = await planned();
    const drawn = shown(id);
    await h.call('tasks:add', { conversationId: id, title: 'Book a room' });
    const error = await h.callError('plan:approve', { conversationId: id, tasks: drawn, comments: NONE });
    expect(error.message).toContain('The plan changed while you were reviewing it');
    expect(await h.call('plan:revisions', { conversationId: id })).toEqual([]);
    expect((await h.call('plan:get', { conversationId: id })).phase).toBe('review');
    expect(h.messages(id).filter((m) => m.origin === 'auto')).toEqual([]);
  });

  it('Request changes with nothing to say, or a comment on a task not in the plan, is refused', async () => {
    const id = await planned();
    const error = await h.callError('plan:requestChanges', { conversationId: id, tasks: shown(id), comments: NONE });
    expect(error.message).toContain('edit the list or add a comment');
    const unknown = await h.callError('plan:requestChanges', {
      conversationId: id,
      tasks: shown(id),
      comments: { general: '', tasks: [{ taskId: 9, text: 'Hm.' }] },
    });
    expect(unknown.message).toContain('comment on task 9');
  });

  it('Stop during planning keeps the list as an unapproved plan', async () => {
    const { id } = await h.newConversation('Stopped');
    server.push(todo(['Collect the figures', 'Draft the summary', 'Email the team']), { hang: true });
    const from = h.events.length;
    await h.call('messages:send', { conversationId: id, content: 'Prepare the summary.' });
    await server.waitForChatRequests(2);
    await h.call('chat:stop', { conversationId: id });
    await h.waitIdle(id, from);
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'review', approved: null });
    server.push({ text: 'On it.' });
    const at = h.events.length;
    await h.call('plan:approve', { conversationId: id, tasks: shown(id), comments: NONE });
    await h.waitIdle(id, at);
    expect((await h.call('plan:get', { conversationId: id })).phase).toBe('approved');
  });

  it('a planning turn that ends without a list asks for no review', async () => {
    const { id } = await h.newConversation('Question');
    server.push({ text: 'Paris.' });
    await h.sendAndWait(id, 'What is the capital of France?');
    expect(await h.call('plan:get', { conversationId: id })).toMatchObject({ phase: 'planning', approved: null });
    const error = await h.callError('plan:approve', { conversationId: id, tasks: [], comments: NONE });
    expect(error.message).toContain('There is no plan to review');
  });

  it('exports every revision (JSON planRevisions, Markdown "Plan") and imports them again', async () => {
    const id = await planned();
    server.push(todo(['Collect the Q3 figures', 'Draft the summary', 'Email the team']), { text: 'Revised.' });
    let from = h.events.length;
    await h.call('plan:requestChanges', {
      conversationId: id,
      tasks: shown(id),
      comments: { general: '', tasks: [{ taskId: 1, text: 'Only Q3.' }] },
    });
    await h.waitIdle(id, from);
    server.push({ text: 'On it.' });
    from = h.events.length;
    await h.call('plan:approve', { conversationId: id, tasks: shown(id), comments: { general: 'Thanks.', tasks: [] } });
    await h.waitIdle(id, from);

    const json = await h.call('export:conversation', { conversationId: id, format: 'json' });
    if (json.kind !== 'download') throw new Error('expected a download');
    const data = ConversationExport.parse(JSON.parse(json.text));
    expect(data.conversation.planReview).toBeNull();
    expect(
      data.planRevisions?.map((r) => [r.list, r.revision, r.approvedAt !== null, r.tasks[0].title, r.comments]),
    ).toEqual([
      [1, 1, false, 'Collect the figures', { general: '', tasks: [{ taskId: 1, text: 'Only Q3.' }] }],
      [1, 2, true, 'Collect the Q3 figures', { general: 'Thanks.', tasks: [] }],
    ]);
    const md = await h.call('export:conversation', { conversationId: id, format: 'md' });
    if (md.kind !== 'download') throw new Error('expected a download');
    expect(md.text).toContain('## Plan\n\nApproved ');
    // The approval is a quiet line, never a message from "You"; no protocol text in either export.
    expect(md.text).toContain('_Plan approved · 3 tasks · revision 2 · ');
    expect(md.text).toContain('- On the plan: Thanks.');
    expect(md.text).not.toMatch(/## You \(plan approved\)|PLAN_/);
    expect(json.text).not.toContain('PLAN_');
    expect(md.text).toContain(
      'revision 2 · 3 tasks\n\n1. Collect the Q3 figures\n2. Draft the summary\n3. Email the team\n\nComment on the plan: Thanks.',
    );

    await h.call('plan:setMode', { conversationId: id, mode: 'every_plan' });
    const again = await h.call('export:conversation', { conversationId: id, format: 'json' });
    if (again.kind !== 'download') throw new Error('expected a download');
    const imported = await h.call('import:conversation', { content: again.text });
    if (imported.kind !== 'imported') throw new Error('not imported');
    const revisions = await h.call('plan:revisions', { conversationId: imported.conversationId });
    expect(revisions).toEqual(await h.call('plan:revisions', { conversationId: id }));
    expect(await h.call('plan:get', { conversationId: imported.conversationId })).toMatchObject({
      mode: 'every_plan',
      phase: 'approved',
      approved: { revision: 2 },
    });
  });
});
