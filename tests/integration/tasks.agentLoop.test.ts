// Task lists through the real agent loop: the scripted model plans and works through five
// steps with the task tools, and every request it receives carries the right <taskList>.
import { describe, expect, it } from 'vitest';
import { type ChatBody, type ScriptedServer, type Turn } from '../support/scriptedServer';
import { chatCorePerTest, TEST_MODEL, type ChatHarness } from '../support/chatHarness';

const STEPS = ['Set up project', 'Create data models', 'Build UI widget', 'Write tests', 'Ship it'];

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

/** A manage_todo_list call: statuses[i] for step i + 1; `except` leaves an item out. */
function manage(statuses: string[], options: { except?: number; text?: string } = {}): Turn {
  const todoList = statuses
    .map((status, i) => ({
      id: i + 1,
      title: STEPS[i],
      status,
      ...(status === 'in_progress' ? { activeForm: `Doing step ${i + 1}` } : {}),
    }))
    .filter((item) => item.id !== options.except);
  return { text: options.text, toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] };
}

const systemOf = (body: ChatBody) => body.messages[0].content ?? '';
/** The <taskList> block of a request, or null. */
function blockOf(body: ChatBody): string | null {
  return /^<taskList>\n[\s\S]*?\n<\/taskList>$/m.exec(systemOf(body))?.[0] ?? null;
}
function block(statuses: string[]): string {
  const lines = statuses.map(
    (s, i) => `- [${s}] (${i + 1}) ${STEPS[i]}${s === 'in_progress' ? ` — Doing step ${i + 1}` : ''}`,
  );
  const done = statuses.filter((s) => s === 'completed').length;
  return ['<taskList>', ...lines, `Progress: ${done}/${statuses.length} completed`, '</taskList>'].join('\n');
}
const toolTexts = (conversationId: string) =>
  h
    .messages(conversationId)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
const taskToolsOffered = (body: ChatBody) =>
  (body.tools ?? []).map((t) => t.function.name).filter((n) => n.startsWith('task_') || n === 'manage_todo_list');

const P = 'pending';
const I = 'in_progress';
const C = 'completed';

describe('a five-step plan through the agent loop (full-list style)', () => {
  it('each request carries the list as it was after the previous round', async () => {
    const rounds = [
      [I, P, P, P, P],
      [C, I, P, P, P],
      [C, C, I, P, P],
      [C, C, C, I, P],
      [C, C, C, C, I],
      [C, C, C, C, C],
    ];
    server.push(...rounds.map((statuses, i) => manage(statuses, { text: i === 0 ? 'Here is my plan.' : undefined })), {
      text: 'All five steps are done.',
    });
    const conversation = await h.newConversation('Five steps');
    const { status } = await h.sendAndWait(conversation.id, 'Build me the app in five steps.');
    expect(status.error).toBeNull();

    const requests = server.streamRequests();
    expect(requests).toHaveLength(7);
    expect(requests.map((r) => blockOf(r.body))).toEqual([null, ...rounds.map(block)]);
    // Guidance for the full-list style is always there; only that style's tool is offered.
    for (const r of requests) {
      expect(systemOf(r.body)).toContain('## Task planning');
      expect(taskToolsOffered(r.body)).toEqual(['manage_todo_list']);
    }
    expect(toolTexts(conversation.id)).toEqual([
      'Task list updated: 0/5 completed',
      'Task list updated: 1/5 completed',
      'Task list updated: 2/5 completed',
      'Task list updated: 3/5 completed',
      'Task list updated: 4/5 completed',
      'Task list updated: 5/5 completed',
    ]);

    // Every change was pushed; the finished list stays open after the turn, badge 5/5.
    const pushed = h.eventsOf('tasks:changed').filter((e) => e.conversationId === conversation.id);
    expect(pushed).toHaveLength(6);
    const list = await h.call('tasks:get', { conversationId: conversation.id });
    expect(list.list!.tasks.map((t) => t.status)).toEqual([C, C, C, C, C]);
    expect(pushed.at(-1)!.list).toEqual(list.list);
    const sidebar = await h.call('conversations:list', {});
    expect(sidebar.items.find((c) => c.id === conversation.id)!.tasks).toEqual({ done: 5, total: 5 });
    // Each task points at the reply that last changed it.
    const replies = h.messages(conversation.id).filter((m) => m.role === 'assistant');
    expect(list.list!.tasks.map((t) => t.lastMessageId)).toEqual([1, 2, 3, 4, 5].map((i) => replies[i].id));

    // The next plan, in a later turn, closes the finished list and numbers from 1 again.
    server.push(
      {
        toolCalls: [
          {
            name: 'manage_todo_list',
            arguments: JSON.stringify({
              todoList: [
                { id: 1, title: 'Deploy', status: I },
                { id: 2, title: 'Announce', status: P },
                { id: 3, title: 'Celebrate', status: P },
              ],
            }),
          },
        ],
      },
      { text: 'Started.' },
    );
    await h.sendAndWait(conversation.id, 'Now release it.');
    const next = await h.call('tasks:get', { conversationId: conversation.id });
    expect(next.list!.tasks.map((t) => [t.id, t.title])).toEqual([
      [1, 'Deploy'],
      [2, 'Announce'],
      [3, 'Celebrate'],
    ]);
    expect(next.list!.id).not.toBe(list.list!.id);
    expect(h.core.tasks.history(conversation.id).map((l) => l.closedAt === null)).toEqual([false, true]);
  });

  it('warns when the script drops an item and when it completes four at once', async () => {
    server.push(manage([I, P, P, P, P]), manage([I, P, P, P, P], { except: 3 }), manage([C, C, C, C, P]), {
      text: 'Done.',
    });
    const conversation = await h.newConversation('Warnings');
    await h.sendAndWait(conversation.id, 'Go.');
    const [, dropped, batch] = toolTexts(conversation.id);
    expect(dropped).toBe(
      'Task list updated: 0/4 completed\n' +
        'Warning: task 3 "Build UI widget" was in the list but is missing from this call, so it was removed. ' +
        'Send the complete list every time; if that was a mistake, call manage_todo_list again with it included.',
    );
    // Task 3 comes back completed: with 1, 2 and 4 that is four tasks completed in one call.
    expect(batch).toBe(
      'Task list updated: 4/5 completed\n' +
        'Warning: 4 tasks changed status in one call (1–4). Mark each task completed as soon as it is done, not several at once.',
    );
    // The model read the warnings: they went back in the next request.
    const last = server
      .streamRequests()
      .at(-1)!
      .body.messages.filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(last).toEqual(toolTexts(conversation.id));
  });

  it('a bad call changes nothing and the model can fix it', async () => {
    server.push(
      manage([I, I, P, P, P]),
      {
        toolCalls: [
          { name: 'manage_todo_list', arguments: '{"todoList": [{"id": 1, "title": "Plan", "status": "wip"}' },
        ],
      },
      manage([I, P, P, P, P]),
      { text: 'Planned.' },
    );
    const conversation = await h.newConversation('Fixing');
    await h.sendAndWait(conversation.id, 'Go.');
    const [twoActive, broken, fixed] = toolTexts(conversation.id);
    expect(twoActive).toMatch(
      /^Error: Only one task may be in_progress at a time; tasks 1 and 2 are\..*The task list was not changed\.$/,
    );
    expect(broken).toMatch(/^Invalid arguments for manage_todo_list: the arguments are not valid JSON/);
    expect(fixed).toBe('Task list updated: 0/5 completed');
    const requests = server.streamRequests();
    expect([blockOf(requests[1].body), blockOf(requests[2].body)]).toEqual([null, null]);
  });
});

describe('the granular style', () => {
  it('offers only the task_* tools and runs a plan with a dependency', async () => {
    await h.call('settings:update', { patch: { taskToolStyle: 'granular' } });
    const call = (name: string, args: unknown) => ({
      name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    });
    server.push(
      {
        toolCalls: [
          call('task_create', { title: 'Set up database' }),
          call('task_create', { title: 'Create API', blockedBy: [1] }),
          call('task_create', { title: 'Write docs' }),
        ],
      },
      {
        toolCalls: [
          call('task_update', { taskId: 2, status: 'in_progress' }),
          call('task_update', { taskId: 1, status: 'in_progress', activeForm: 'Setting up the database' }),
        ],
      },
      { toolCalls: [call('task_update', { taskId: 1, status: 'completed' }), call('task_list', '')] },
      { text: 'Database is ready.' },
    );
    const conversation = await h.newConversation('Granular');
    await h.sendAndWait(conversation.id, 'Build the backend.');
    const requests = server.streamRequests();
    for (const r of requests) {
      expect(taskToolsOffered(r.body)).toEqual(['task_create', 'task_update', 'task_get', 'task_list', 'task_delete']);
      expect(systemOf(r.body)).not.toContain('manage_todo_list');
    }
    expect(blockOf(requests[1].body)).toBe(
      '<taskList>\n- [pending] (1) Set up database\n- [pending] (2) Create API [blocked by 1]\n- [pending] (3) Write docs\nProgress: 0/3 completed\n</taskList>',
    );
    expect(blockOf(requests[2].body)).toBe(
      '<taskList>\n- [in_progress] (1) Set up database — Setting up the database\n- [pending] (2) Create API [blocked by 1]\n- [pending] (3) Write docs\nProgress: 0/3 completed\n</taskList>',
    );
    expect(blockOf(requests[3].body)).toBe(
      '<taskList>\n- [completed] (1) Set up database\n- [pending] (2) Create API\n- [pending] (3) Write docs\nProgress: 1/3 completed\n</taskList>',
    );
    const texts = toolTexts(conversation.id).map((t) => JSON.parse(t) as Record<string, unknown>);
    expect(texts[3]).toEqual({
      ok: false,
      error:
        'Task 2 cannot be started: it is blocked by 1, which is not completed yet. Finish it first or remove the dependency.',
    });
    expect(texts[5]).toMatchObject({ ok: true, unblocked: [2], progress: '1/3 completed' });
    expect(texts[6]).toMatchObject({ ok: true, progress: '1/3 completed' });

    // Switching back offers manage_todo_list again, on the same tables.
    await h.call('settings:update', { patch: { taskToolStyle: 'full-list' } });
    server.push({ text: 'Noted.' });
    await h.sendAndWait(conversation.id, 'Thanks.');
    const last = server.streamRequests().at(-1)!.body;
    expect(taskToolsOffered(last)).toEqual(['manage_todo_list']);
    expect(blockOf(last)).toContain('- [completed] (1) Set up database');
  });
});

describe('the user and the list', () => {
  async function planned() {
    server.push(manage([I, P, P, P, P]), { text: 'Planned; starting.' });
    const conversation = await h.newConversation('User edits');
    await h.sendAndWait(conversation.id, 'Plan it.');
    return conversation.id;
  }

  it('the next request after the user edits the list says what changed, once', async () => {
    const id = await planned();
    await h.call('tasks:update', { conversationId: id, taskId: 3, patch: { status: 'completed' } });
    await h.call('tasks:update', { conversationId: id, taskId: 4, patch: { title: 'Write more tests' } });
    server.push({ text: 'I see you finished step 3.' }, { text: 'OK.' });
    await h.sendAndWait(id, 'I did step 3 myself.');
    await h.sendAndWait(id, 'Carry on.');
    const [, withNotice, after] = server.streamRequests().slice(-3);
    expect(systemOf(withNotice.body)).toContain('The user marked task 3 completed and renamed task 4.');
    expect(blockOf(withNotice.body)).toContain('- [completed] (3) Build UI widget\n- [pending] (4) Write more tests');
    expect(systemOf(after.body)).not.toContain('The user');
  });

  it('/clear closes the list; stopping keeps it; an edit starts its branch with the list as of the edited message', async () => {
    const id = await planned();
    const note = await h.call('messages:send', { conversationId: id, content: '/clear' });
    expect(note).toMatchObject({ role: 'system', content: expect.stringContaining('The task list was closed') });
    expect((await h.call('tasks:get', { conversationId: id })).list).toBeNull();

    server.push(manage([I, P, P, P, P]), { text: 'Planned again.' });
    await h.sendAndWait(id, 'Plan it again.');
    expect((await h.call('tasks:get', { conversationId: id })).list).not.toBeNull();
    const from = h.events.length;
    server.push({ text: 'A slow answer that will be stopped', chunkSize: 2, chunkDelayMs: 50 });
    await h.call('messages:send', { conversationId: id, content: 'Explain slowly.' });
    await h.waitForEvent('messages:changed', (m) => m.message.role === 'assistant' && m.message.content.length > 0, {
      from,
    });
    await h.call('chat:stop', { conversationId: id });
    expect((await h.call('tasks:get', { conversationId: id })).list!.tasks).toHaveLength(5);

    // The user ticks task 2 on this branch; the edited message was sent before that.
    await h.call('tasks:update', { conversationId: id, taskId: 2, patch: { status: 'completed' } });
    server.push({ text: 'Edited answer.' });
    const editFrom = h.events.length;
    await h.call('chat:editLast', { conversationId: id, content: 'Explain briefly.' });
    await h.waitIdle(id, editFrom);
    const edited = (await h.call('tasks:get', { conversationId: id })).list!;
    expect(edited.tasks.map((t) => t.status)).toEqual([I, P, P, P, P]);
    expect(blockOf(server.streamRequests().at(-1)!.body)).toBe(block([I, P, P, P, P]));
    // The /clear'ed list, the old branch's (parked) and the new branch's.
    expect(h.core.tasks.history(id)).toHaveLength(3);
  });

  it('the block outlives compaction of old history', async () => {
    // A 4,000-token window: a few long exchanges overflow it, the oldest are summarized.
    const window = { [TEST_MODEL]: { contextWindow: 4000 } };
    await h.call('providers:save', {
      profile: { id: 'env', name: 'Environment', preset: 'custom', baseUrl: '', modelOptions: window },
    });
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const answers: Turn[] = [manage([I, P, P, P, P]), { text: 'Planned.' }];
    server.setScript((request) =>
      request.body.stream ? (answers.shift() ?? { text: 'OK' }) : { text: 'Summary: the user asked for a plan.' },
    );
    const conversation = await h.newConversation('Long');
    await h.sendAndWait(conversation.id, 'Plan it.');
    for (let i = 0; i < 4; i++) {
      answers.push({ text: `Answer ${i}: ${words(300)}` });
      const { status } = await h.sendAndWait(conversation.id, `Question ${i}: ${words(100)}`);
      expect(status.error).toBeNull();
    }
    const last = server.streamRequests().at(-1)!.body;
    // The plan request was summarized away, the list was not.
    expect(last.messages.some((m) => m.content === 'Plan it.')).toBe(false);
    expect(last.messages[0].content).toContain('Summary: the user asked for a plan.');
    expect(blockOf(last)).toBe(block([I, P, P, P, P]));
    expect(h.messages(conversation.id).some((m) => m.content === 'Plan it.')).toBe(true);
  });
});
