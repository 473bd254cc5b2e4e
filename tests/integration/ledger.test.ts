// The task ledger through the real agent loop: each action an agent takes while one of its
// tasks is in progress is linked to that task (main agent and workers, every tool,
// `start_task` included), but not its bookkeeping (the list's own updates, `think`, the
// clock); calls with no task in progress stay unlinked; and every call's outcome is
// recorded with the call's result message.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ChatBody, type ScriptedServer, type Turn } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import { defineTool, toolResult } from '../../src/main/core/tools/toolTypes';

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest((s, c) => {
  server = s;
  h = c;
  // A real action (not bookkeeping): answers what it was asked, and fails on "throw".
  h.core.tools.register(
    defineTool({
      name: 'lookup',
      description: 'Looks something up',
      parameters: z.object({ q: z.string().optional() }),
      handler: (args) => {
        if (args.q === 'throw') throw new Error('Nothing is called throw.');
        return JSON.stringify({ q: args.q ?? null, found: true });
      },
    }),
  );
});

const TITLES = ['Gather facts', 'Write summary', 'Review'];
function plan(statuses: string[], id?: string): Turn {
  const todoList = statuses.map((status, i) => ({ id: i + 1, title: TITLES[i], status }));
  return { toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }), ...(id ? { id } : {}) }] };
}
const call = (name: string, args: object = {}, id?: string): Turn => ({
  toolCalls: [{ name, arguments: JSON.stringify(args), ...(id ? { id } : {}) }],
});
const systemOf = (body: ChatBody) => String(body.messages[0]?.content ?? '');
const isWorker = (body: ChatBody) => /<task>\n/.test(systemOf(body));
const toolResults = (body: ChatBody) => body.messages.filter((m) => m.role === 'tool').length;

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  await expect.poll(check, { timeout: timeoutMs, message: `waiting for ${what}` }).toBe(true);
}

/** The main agent's requests in order: the nth streaming request gets script[n]. */
function mainScript(turns: Turn[], worker?: (body: ChatBody) => Turn) {
  let n = 0;
  server.setScript((req) => {
    if (!req.body.stream) return { text: 'A title' };
    if (isWorker(req.body)) return worker ? worker(req.body) : { text: 'Worker done.' };
    return turns[n++] ?? { text: 'All done.' };
  });
}

describe('linking calls to the task in progress', () => {
  it('links the main agent’s actions, not its bookkeeping, and leaves calls without a task in progress unlinked', async () => {
    mainScript([
      call('lookup', {}, 'call_before'),
      plan(['in_progress', 'pending', 'pending'], 'call_plan'),
      call('lookup', { q: 'UTC' }, 'call_time'),
      call('think', { thought: 'Facts look complete.' }, 'call_think'),
      call('get_current_time', {}, 'call_clock'),
      plan(['completed', 'in_progress', 'pending'], 'call_next'),
      call('lookup', {}, 'call_task2'),
      plan(['completed', 'completed', 'completed'], 'call_finish'),
      call('lookup', {}, 'call_after'),
    ]);
    const conversation = await h.newConversation('Ledger');
    const { status } = await h.sendAndWait(conversation.id, 'Work through the plan.');
    expect(status.error).toBeNull();

    const rows = h.core.ledger.store.all(conversation.id);
    expect(rows.map((r) => [r.tool_call_id, r.task_id === null ? null : 'linked'])).toEqual([
      ['call_before', null],
      ['call_plan', null],
      ['call_time', 'linked'],
      // Bookkeeping is no task's entry: thinking, the clock, the list's own updates.
      ['call_think', null],
      ['call_clock', null],
      ['call_next', null],
      ['call_task2', 'linked'],
      ['call_finish', null],
      ['call_after', null],
    ]);

    const task1 = await h.call('ledger:calls', { conversationId: conversation.id, taskId: 1 });
    expect(task1.calls.map((c) => c.name)).toEqual(['lookup']);
    expect(
      task1.calls.every((c) => c.agentId === 'main' && c.transcriptId === conversation.id && c.outcome === 'ok'),
    ).toBe(true);
    // Each call points at its stored result, the message the transcript shows its card with.
    for (const c of task1.calls) {
      const message = h.core.messages.get(c.messageId!)!;
      expect(message).toMatchObject({
        role: 'tool',
        toolCallId: c.toolCallId,
        toolName: c.name,
        conversationId: conversation.id,
      });
      expect(c.endedAt).toBeGreaterThanOrEqual(c.startedAt);
    }
    const task2 = await h.call('ledger:calls', { conversationId: conversation.id, taskId: 2 });
    expect(task2.calls.map((c) => c.toolCallId)).toEqual(['call_task2']);
    const counts = await h.call('ledger:counts', { conversationId: conversation.id });
    expect(counts.counts).toEqual([
      { taskId: 1, count: 1 },
      { taskId: 2, count: 1 },
    ]);
    expect(counts.listId).toBe(h.core.tasks.get(conversation.id)!.id);

    // Each linked call was pushed with the task's running count; unlinked ones were not.
    const pushed = h.eventsOf('ledger:changed').filter((e) => e.conversationId === conversation.id);
    expect(pushed.map((e) => [e.taskId, e.count])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    // The stored arguments and result are the call's own.
    const time = rows.find((r) => r.tool_call_id === 'call_time')!;
    expect(JSON.parse(time.arguments)).toEqual({ q: 'UTC' });
    expect(JSON.parse(time.result).q).toBe('UTC');
  });

  it('links start_task to the main agent’s task and a worker’s calls to the task it owns', async () => {
    mainScript(
      [
        plan(['in_progress', 'pending', 'pending']),
        {
          toolCalls: [
            {
              id: 'call_start',
              name: 'start_task',
              arguments: JSON.stringify({ task_description: 'Write the summary', taskId: 2 }),
            },
          ],
        },
        { text: 'The worker is on it.' },
      ],
      (body) =>
        toolResults(body) === 0
          ? {
              toolCalls: [
                { id: 'call_worker_think', name: 'think', arguments: '{"thought":"Short is better."}' },
                { id: 'call_worker_time', name: 'lookup', arguments: '{}' },
              ],
            }
          : { text: 'Summary written.' },
    );
    const conversation = await h.newConversation('Ledger with a worker');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Plan it and delegate the summary.' });
    await until(() => h.messages(conversation.id).some((m) => m.origin === 'worker'), 'the worker to report');
    await until(() => !h.core.chat.isRunning(conversation.id), 'the main agent to finish');

    const [worker] = await h.call('workers:list', { conversationId: conversation.id });
    const task1 = await h.call('ledger:calls', { conversationId: conversation.id, taskId: 1 });
    expect(task1.calls.map((c) => [c.name, c.toolCallId])).toEqual([['start_task', 'call_start']]);
    const task2 = await h.call('ledger:calls', { conversationId: conversation.id, taskId: 2 });
    expect(task2.calls.map((c) => [c.name, c.agentId, c.transcriptId])).toEqual([['lookup', 'worker-1', worker.id]]);
    // The worker's cards are in its own transcript.
    for (const c of task2.calls) expect(h.core.messages.get(c.messageId!)!.conversationId).toBe(worker.id);
  });
});

describe('the ledger outlives the transcript it points at', () => {
  it('keeps calls whose result went with a regenerated version (linked to it there), and goes with the conversation', async () => {
    mainScript([
      plan(['in_progress', 'pending', 'pending'], 'call_plan'),
      call('lookup', {}, 'call_time'),
      { text: 'It is noon.' },
    ]);
    const conversation = await h.newConversation('Regenerated');
    await h.sendAndWait(conversation.id, 'What time is it?');
    const from = h.events.length;
    await h.call('chat:regenerate', { conversationId: conversation.id });
    await h.waitIdle(conversation.id, from);
    // The new reply starts from the list as of the question (none); the old one keeps its list.
    expect(await h.call('ledger:calls', { conversationId: conversation.id, taskId: 1 })).toEqual({ calls: [] });
    // The call happened (its effects may be real): it stays, linked to its card in the old version.
    const kept = h.core.ledger.store.all(conversation.id).filter((c) => c.tool_call_id === 'call_time');
    expect(kept).toHaveLength(1);
    const card = h.core.messages.get(kept[0].message_id!)!;
    expect(card).toMatchObject({ role: 'tool', toolCallId: 'call_time' });
    expect(h.core.messages.all(conversation.id).map((m) => m.id)).not.toContain(card.id);
    // Showing the old reply again brings its list back, with the call under its task.
    const reply = h.core.messages.all(conversation.id)[1];
    await h.call('messages:showVersion', { conversationId: conversation.id, messageId: reply.id, index: 1 });
    const calls = await h.call('ledger:calls', { conversationId: conversation.id, taskId: 1 });
    expect(calls.calls.map((c) => [c.toolCallId, c.messageId])).toEqual([['call_time', card.id]]);

    await h.call('conversations:delete', { id: conversation.id });
    expect(h.core.ledger.store.all(conversation.id)).toEqual([]);
  });
});

describe('outcomes', () => {
  it('records ok, error, denied and cancelled, and keeps the first 500 characters of a result', async () => {
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    h.core.tools.register(
      defineTool({
        name: 'long_text',
        description: 'Long text',
        parameters: z.object({}),
        handler: () => `${'é'.repeat(499)}😀${'x'.repeat(600)}`,
      }),
    );
    h.core.tools.register(
      defineTool({
        name: 'guarded',
        description: 'Needs approval',
        parameters: z.object({}),
        handler: () => toolResult('denied', 'The user denied this call.'),
      }),
    );
    h.core.tools.register(
      defineTool({
        name: 'slow',
        description: 'Waits until stopped',
        parameters: z.object({}),
        handler: (_args, ctx) => {
          markStarted();
          return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('late')));
        },
      }),
    );
    mainScript([
      plan(['in_progress', 'pending', 'pending']),
      call('long_text', {}, 'call_long'),
      call('no_such_tool', {}, 'call_unknown'),
      call('lookup', { q: 'throw' }, 'call_throws'),
      call('guarded', {}, 'call_denied'),
      {
        toolCalls: [
          { id: 'call_slow', name: 'slow', arguments: '{}' },
          { id: 'call_skipped', name: 'lookup', arguments: '{}' },
        ],
      },
    ]);
    const conversation = await h.newConversation('Outcomes');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Go.' });
    await started;
    await h.call('chat:stop', { conversationId: conversation.id });

    const rows = h.core.ledger.store.all(conversation.id).slice(1);
    expect(rows.map((r) => [r.tool_call_id, r.outcome])).toEqual([
      ['call_long', 'ok'],
      ['call_unknown', 'error'],
      ['call_throws', 'error'],
      ['call_denied', 'denied'],
      ['call_slow', 'cancelled'],
      ['call_skipped', 'cancelled'],
    ]);
    expect(rows.every((r) => r.task_id !== null)).toBe(true);
    const long = rows[0].result;
    expect(Array.from(long)).toHaveLength(500);
    expect(long.endsWith('😀')).toBe(true);
    expect(rows[3].result).toBe('The user denied this call.');
    // The denial reached the model's transcript as the call's result too.
    expect(h.core.messages.get(rows[3].message_id!)!.content).toBe('The user denied this call.');
    const calls = await h.call('ledger:calls', { conversationId: conversation.id, taskId: 1 });
    expect(calls.calls.map((c) => c.outcome)).toEqual(['ok', 'error', 'error', 'denied', 'cancelled', 'cancelled']);
  });
});
