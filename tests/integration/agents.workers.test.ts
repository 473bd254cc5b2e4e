// Workers end to end: the scripted server plays the main agent and every worker at once
// (routed on the system prompt), through the real engine and SQLite.
import { describe, expect, it } from 'vitest';
import { type ChatBody, type ScriptedServer, type Turn } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import { transcriptProblems } from '../support/transcriptValidator';
import { buildApiMessages } from '../../src/main/core/context/apiMessages';
import { checkInvariants } from '../support/taskInvariants';
import { taskBadge } from '../../src/shared/taskProgress';
import type { EventPayload } from '../../src/shared/ipc';
import { modelText } from '../../src/shared/messageKinds';

let server: ScriptedServer;
let h: ChatHarness;

type Body = ChatBody;
const systemOf = (body: Body) => String(body.messages[0]?.content ?? '');
const taskOf = (body: Body) => /<task>\n([\s\S]*?)\n<\/task>/.exec(systemOf(body))?.[1] ?? null;
const isMain = (body: Body) => systemOf(body).includes('## Delegating to workers');
const lastUser = (body: Body) => String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
const workerResults = (body: Body) =>
  body.messages.filter(
    (m) => m.role === 'user' && /^(Worker \d+|Task \d+ was completed by worker)/.test(String(m.content)),
  );
const hasToolResults = (body: Body) => body.messages.at(-1)?.role === 'tool';

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  await expect.poll(check, { timeout: timeoutMs, message: `waiting for ${what}` }).toBe(true);
}

function startTasks(...descriptions: Array<{ description: string; taskId?: number }>): Turn {
  return {
    text: 'Starting workers.',
    toolCalls: descriptions.map((d, i) => ({
      id: `call_start_${i + 1}`,
      name: 'start_task',
      arguments: JSON.stringify({ task_description: d.description, ...(d.taskId ? { taskId: d.taskId } : {}) }),
    })),
  };
}

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

describe('workers', () => {
  it('runs three workers with concurrency 2: the third waits, then runs, and the main agent aggregates', async () => {
    await h.call('settings:update', { patch: { workerConcurrency: 2 } });
    const gates = new Map<string, () => void>();
    let inFlight = 0;
    let maxInFlight = 0;
    server.setScript(async (req) => {
      const body = req.body;
      const task = taskOf(body);
      if (task) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((resolve) => gates.set(task, resolve));
        inFlight--;
        return { text: `Complete data for ${task}: [1, 2, 3]` };
      }
      if (!isMain(body)) return { text: 'title' };
      if (hasToolResults(body)) return { text: 'The workers are on it.' };
      const results = workerResults(body);
      if (results.length === 0)
        return startTasks(
          { description: 'Summarize a.txt' },
          { description: 'Summarize b.txt' },
          { description: 'Summarize c.txt' },
        );
      if (results.length < 3) return { text: `Got ${results.length} of 3.` };
      return { text: 'All three summaries: a, b and c.' };
    });
    const conversation = await h.newConversation('Three files');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Summarize a.txt, b.txt and c.txt' });

    await until(() => gates.size === 2, 'two workers to call the model');
    const workers = await h.call('workers:list', { conversationId: conversation.id });
    expect(workers.map((w) => w.status).sort()).toEqual(['queued', 'running', 'running']);
    expect(gates.has('Summarize c.txt')).toBe(false);

    gates.get('Summarize a.txt')!();
    await until(() => gates.has('Summarize c.txt'), 'the third worker to start');
    gates.get('Summarize b.txt')!();
    gates.get('Summarize c.txt')!();

    await until(
      () =>
        h
          .messages(conversation.id)
          .some((m) => m.role === 'assistant' && m.content === 'All three summaries: a, b and c.'),
      'the aggregated answer',
    );
    await h.waitIdle(conversation.id);
    expect(maxInFlight).toBe(2);
    const done = await h.call('workers:list', { conversationId: conversation.id });
    expect(done.map((w) => [w.number, w.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
      [3, 'done'],
    ]);
    const delivered = h.messages(conversation.id).filter((m) => m.origin === 'worker');
    expect(delivered).toHaveLength(3);
    expect(delivered.map((m) => m.content).join('\n')).toContain('Complete data for Summarize c.txt: [1, 2, 3]');
    // The worker transcripts are their own conversations, hidden from the sidebar.
    const sidebar = await h.call('conversations:list', {});
    expect(sidebar.items.map((c) => c.id)).toEqual([conversation.id]);
    // Workers never see start_task; only they see ask_user.
    const workerRequest = server.chatRequests().find((r) => taskOf(r.body));
    const workerTools = workerRequest!.body.tools!.map((t) => t.function.name);
    expect(workerTools).toContain('ask_user');
    expect(workerTools).not.toContain('start_task');
    const mainTools = server
      .chatRequests()
      .find((r) => isMain(r.body))!
      .body.tools!.map((t) => t.function.name);
    expect(mainTools).toContain('start_task');
    expect(mainTools).not.toContain('ask_user');
    for (const request of server.chatRequests()) expect(transcriptProblems(request.body.messages)).toEqual([]);
  });

  it('delivers a structured error report when a worker fails, and retries nothing by itself', async () => {
    server.setScript((req) => {
      const body = req.body;
      if (taskOf(body)) return { status: 401, errorMessage: 'bad key' };
      if (!isMain(body)) return { text: 'title' };
      if (hasToolResults(body)) return { text: 'Started.' };
      if (workerResults(body).length) return { text: 'The worker failed; I will ask the user.' };
      return startTasks({ description: 'List EC2 instances' });
    });
    const conversation = await h.newConversation('Failing worker');
    await h.call('messages:send', { conversationId: conversation.id, content: 'List my instances' });
    await until(
      () => h.messages(conversation.id).some((m) => m.content === 'The worker failed; I will ask the user.'),
      'the main agent to read the report',
    );
    const report = h.messages(conversation.id).find((m) => m.origin === 'worker')!;
    expect(report.content.startsWith('Worker 1 failed:')).toBe(true);
    const json = JSON.parse(/```json\n([\s\S]*)\n```/.exec(report.content)![1]);
    expect(json).toMatchObject({ task_id: 'worker-1', status: 'error', error_type: 'auth' });
    expect(json.message).toContain('API key');
    expect(json.context).toContain('List EC2 instances');
    expect(typeof json.suggestion).toBe('string');
    const workerRequests = server.chatRequests().filter((r) => taskOf(r.body));
    expect(workerRequests).toHaveLength(1);
    const [worker] = await h.call('workers:list', { conversationId: conversation.id });
    expect(worker.status).toBe('error');
  });

  it('stop-all halts every agent, leaves a summary, and the next request is valid', async () => {
    server.setScript((req) => {
      const body = req.body;
      if (taskOf(body)) {
        // Worker 1 streams slowly; worker 2 is mid-tool-call when stopped.
        if (taskOf(body)!.includes('EC2')) return { text: 'x'.repeat(400), chunkSize: 1, chunkDelayMs: 20 };
        return { toolCalls: [{ id: 'call_slow', name: 'ask_user', arguments: '{"question": "Which region?"}' }] };
      }
      if (!isMain(body)) return { text: 'title' };
      if (lastUser(body) === 'continue') return { text: 'Continuing from the summary.' };
      if (hasToolResults(body)) return { text: 'Both workers started.' };
      return {
        toolCalls: [
          {
            id: 'call_plan',
            name: 'manage_todo_list',
            arguments: JSON.stringify({
              todoList: [
                { id: 1, title: 'List EC2 instances', status: 'pending' },
                { id: 2, title: 'List S3 buckets', status: 'pending' },
                { id: 3, title: 'Summarize', status: 'pending' },
              ],
            }),
          },
          {
            id: 'call_w1',
            name: 'start_task',
            arguments: JSON.stringify({ task_description: 'List EC2 instances', taskId: 1 }),
          },
          {
            id: 'call_w2',
            name: 'start_task',
            arguments: JSON.stringify({ task_description: 'List S3 buckets', taskId: 2 }),
          },
        ],
      };
    });
    const conversation = await h.newConversation('Stop all');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Inventory my AWS' });
    await until(() => {
      const workers = h.core.workers.list(conversation.id);
      return workers.length === 2 && workers[1].needsInput && workers[0].activity === 'streaming';
    }, 'worker 1 streaming and worker 2 waiting for an answer');
    await until(() => !h.core.chat.isRunning(conversation.id), 'the main agent to end its turn');
    const list = (await h.call('tasks:get', { conversationId: conversation.id })).list!;
    expect(list.tasks.map((t) => [t.id, t.status, t.owner])).toEqual([
      [1, 'in_progress', 'worker-1'],
      [2, 'in_progress', 'worker-2'],
      [3, 'pending', 'main'],
    ]);

    expect((await h.call('questions:list', { conversationId: conversation.id })).map((q) => q.text)).toEqual([
      'Which region?',
    ]);
    await h.call('chat:stop', { conversationId: conversation.id });
    // Stop cancelled the question: the worker's ask_user got "cancelled by user".
    expect(await h.call('questions:list', { conversationId: conversation.id })).toEqual([]);
    const asker = h.core.workers.list(conversation.id)[1];
    expect(h.messages(asker.id).find((m) => m.role === 'tool')?.content).toBe('cancelled by user');
    const summary = h.messages(conversation.id).at(-1)!;
    expect(summary.origin).toBe('system');
    expect(summary.kind).toBe('stop_note');
    const stopText = modelText(summary);
    expect(stopText).toMatch(/^\[Stopped at \d\d:\d\d:\d\d\] Main agent: idle\./);
    expect(stopText).toContain('Worker 1 "List EC2 instances": was streaming.');
    expect(stopText).toContain('Worker 2 "List S3 buckets": waiting for input.');
    expect(stopText).toContain('Task list: 3 tasks (1 pending, 2 in progress, 0 completed).');
    const workers = await h.call('workers:list', { conversationId: conversation.id });
    expect(workers.map((w) => w.status)).toEqual(['stopped', 'stopped']);
    // Stopped workers hand their tasks back to the main agent, still in progress and marked.
    const after = (await h.call('tasks:get', { conversationId: conversation.id })).list!;
    expect(after.tasks.map((t) => [t.id, t.status, t.owner, t.handedBack])).toEqual([
      [1, 'in_progress', 'worker-1', 'stopped'],
      [2, 'in_progress', 'worker-2', 'stopped'],
      [3, 'pending', 'main', null],
    ]);

    // Every stored transcript turns into a valid request.
    for (const id of [conversation.id, ...workers.map((w) => w.id)]) {
      expect(transcriptProblems(buildApiMessages('system', h.messages(id), 1e9) as Body['messages'])).toEqual([]);
      for (const m of h.messages(id)) expect(m.status).not.toBe('streaming');
    }
    const asked = h.messages(workers[1].id).find((m) => m.role === 'tool');
    expect(asked?.content).toBe('cancelled by user');

    const before = server.chatRequests().length;
    await h.sendAndWait(conversation.id, 'continue');
    const next = server
      .chatRequests()
      .slice(before)
      .find((r) => isMain(r.body))!;
    expect(transcriptProblems(next.body.messages)).toEqual([]);
    expect(next.body.messages.some((m) => String(m.content).startsWith('[Stopped at'))).toBe(true);
    expect(h.messages(conversation.id).at(-1)?.content).toBe('Continuing from the summary.');
  });

  it('five workers updating the same list at once keep the invariants', async () => {
    await h.call('settings:update', { patch: { taskToolStyle: 'granular', workerConcurrency: 5 } });
    const round = new Map<string, number>();
    server.setScript((req) => {
      const body = req.body;
      const task = taskOf(body);
      if (task) {
        const n = Number(/#(\d)/.exec(task)![1]);
        const step = (round.get(task) ?? 0) + 1;
        round.set(task, step);
        if (step === 1) {
          return {
            toolCalls: [
              { id: `c${n}a`, name: 'task_update', arguments: JSON.stringify({ taskId: n, status: 'in_progress' }) },
              { id: `c${n}b`, name: 'task_create', arguments: JSON.stringify({ title: `Follow-up from worker ${n}` }) },
            ],
            chunkDelayMs: 1,
          };
        }
        if (step === 2) {
          return {
            toolCalls: [
              { id: `c${n}c`, name: 'task_update', arguments: JSON.stringify({ taskId: n, status: 'completed' }) },
            ],
          };
        }
        return { text: `Part #${n} done.` };
      }
      if (!isMain(body)) return { text: 'title' };
      if (hasToolResults(body)) return { text: 'Working.' };
      if (workerResults(body).length >= 5) return { text: 'All parts done.' };
      if (workerResults(body).length) return { text: 'Noted.' };
      return {
        toolCalls: [
          ...[1, 2, 3, 4, 5].map((n) => ({
            id: `t${n}`,
            name: 'task_create',
            arguments: JSON.stringify({ title: `Part #${n}` }),
          })),
          ...[1, 2, 3, 4, 5].map((n) => ({
            id: `s${n}`,
            name: 'start_task',
            arguments: JSON.stringify({ task_description: `Do part #${n}`, taskId: n }),
          })),
        ],
      };
    });
    const conversation = await h.newConversation('Five workers');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Do the five parts' });
    await until(
      () => h.messages(conversation.id).some((m) => m.content === 'All parts done.'),
      'all parts done',
      30_000,
    );
    const list = (await h.call('tasks:get', { conversationId: conversation.id })).list!;
    expect(checkInvariants(list)).toEqual([]);
    expect(list.tasks.filter((t) => t.id <= 5).map((t) => [t.id, t.status, t.owner])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, 'completed', `worker-${n}`]),
    );
    const followUps = list.tasks.filter((t) => t.title.startsWith('Follow-up'));
    expect(followUps.map((t) => t.owner).sort()).toEqual(['worker-1', 'worker-2', 'worker-3', 'worker-4', 'worker-5']);
  });

  it('workers that finish complete their tasks with their results; the next request says so', async () => {
    const plan = {
      id: 'call_plan',
      name: 'manage_todo_list',
      arguments: JSON.stringify({
        todoList: [1, 2, 3].map((n) => ({ id: n, title: `Count basket ${n}`, status: 'pending' })),
      }),
    };
    server.setScript((req) => {
      const body = req.body;
      const task = taskOf(body);
      if (task) return { text: `${task}: 12 apples.` };
      if (!isMain(body)) return { text: 'title' };
      if (hasToolResults(body)) return { text: 'Counting.' };
      if (workerResults(body).length >= 3) return { text: 'All counted.' };
      if (workerResults(body).length) return { text: 'Noted.' };
      return {
        toolCalls: [
          plan,
          ...[1, 2, 3].map((n) => ({
            id: `s${n}`,
            name: 'start_task',
            arguments: JSON.stringify({ task_description: `Count basket ${n}`, taskId: n }),
          })),
        ],
      };
    });
    const conversation = await h.newConversation('Baskets');
    // Every header list pushed, and the sidebar badge counted from it, agrees with the database at that moment.
    const progress = (tasks: ReadonlyArray<{ status: string }>) =>
      `${tasks.filter((t) => t.status === 'completed').length}/${tasks.length}`;
    const headers: string[] = [];
    const mismatches: string[] = [];
    h.core.bus.subscribe((event, payload) => {
      const stored = h.core.tasks.get(conversation.id);
      const now = stored ? progress(stored.tasks) : null;
      if (event === 'tasks:changed') {
        const { list } = payload as EventPayload<'tasks:changed'>;
        headers.push(list ? progress(list.tasks) : '');
        if ((list ? progress(list.tasks) : null) !== now) mismatches.push(`header ${headers.at(-1)} vs ${now}`);
        const badge = taskBadge(list?.tasks);
        const counted = h.core.tasks.badges([conversation.id]).get(conversation.id) ?? null;
        if (JSON.stringify(badge) !== JSON.stringify(counted))
          mismatches.push(`badge ${JSON.stringify(badge)} vs ${JSON.stringify(counted)}`);
      }
    });
    await h.call('messages:send', { conversationId: conversation.id, content: 'Count the three baskets' });
    await until(() => h.messages(conversation.id).some((m) => m.content === 'All counted.'), 'the aggregated answer');
    await h.waitIdle(conversation.id);
    const list = (await h.call('tasks:get', { conversationId: conversation.id })).list!;
    expect(list.tasks.map((t) => [t.id, t.status, t.owner, t.handedBack])).toEqual(
      [1, 2, 3].map((n) => [n, 'completed', `worker-${n}`, null]),
    );
    const delivered = h
      .messages(conversation.id)
      .filter((m) => m.origin === 'worker')
      .map((m) => m.content)
      .sort();
    expect(delivered).toEqual(
      [1, 2, 3].map(
        (n) =>
          `Task ${n} was completed by worker ${n} with this result:\n\nCount basket ${n}: 12 apples.\n\nReopen it if the result is not enough.`,
      ),
    );
    // The worker's status and its task's completion were one write: no push saw one without the other.
    const workers = await h.call('workers:list', { conversationId: conversation.id });
    expect(workers.map((w) => w.status)).toEqual(['done', 'done', 'done']);
    expect(headers).toEqual(['0/3', '0/3', '0/3', '0/3', '1/3', '2/3', '3/3']);
    expect(mismatches).toEqual([]);
    const summary = (await h.call('conversations:list', {})).items.find((c) => c.id === conversation.id)!;
    expect(summary.tasks).toEqual({ done: 3, total: 3 });
  });

  it('a worker that fails hands its task back in progress, marked, and the main agent is told', async () => {
    server.setScript((req) => {
      const body = req.body;
      if (taskOf(body)) return { status: 401, errorMessage: 'bad key' };
      if (!isMain(body)) return { text: 'title' };
      if (hasToolResults(body)) return { text: 'Started.' };
      if (workerResults(body).length) return { text: 'I will look at task 2 myself.' };
      return {
        toolCalls: [
          {
            id: 'call_plan',
            name: 'manage_todo_list',
            arguments: JSON.stringify({
              todoList: [
                { id: 1, title: 'Plan the count', status: 'in_progress' },
                { id: 2, title: 'Count north basket', status: 'pending' },
                { id: 3, title: 'Report', status: 'pending' },
              ],
            }),
          },
          {
            id: 'call_w',
            name: 'start_task',
            arguments: JSON.stringify({ task_description: 'Count north basket', taskId: 2 }),
          },
        ],
      };
    });
    const conversation = await h.newConversation('Failing task');
    await h.call('messages:send', { conversationId: conversation.id, content: 'Count it' });
    await until(
      () => h.messages(conversation.id).some((m) => m.content === 'I will look at task 2 myself.'),
      'the main agent to read the report',
    );
    const list = (await h.call('tasks:get', { conversationId: conversation.id })).list!;
    expect(list.tasks.map((t) => [t.id, t.status, t.owner, t.handedBack])).toEqual([
      [1, 'in_progress', 'main', null],
      [2, 'in_progress', 'worker-1', 'failed'],
      [3, 'pending', 'main', null],
    ]);
    const report = h.messages(conversation.id).find((m) => m.origin === 'worker')!;
    expect(report.content.startsWith('Worker 1 (task 2) failed:')).toBe(true);
    expect(report.content).toContain('Task 2 is handed back to you, still in progress');
    const lastMain = server
      .chatRequests()
      .filter((r) => isMain(r.body))
      .at(-1)!;
    expect(systemOf(lastMain.body)).toContain(
      '- [in_progress] (2) Count north basket [Worker 1 failed; handed back to you]',
    );
    // The main agent takes it over: any status change clears the mark.
    await h.call('tasks:update', { conversationId: conversation.id, taskId: 2, patch: { status: 'pending' } });
    expect((await h.call('tasks:get', { conversationId: conversation.id })).list!.tasks[1]).toMatchObject({
      status: 'pending',
      handedBack: null,
    });
  });

  it('a worker asks the user, waits (⚠), and continues with the answer', async () => {
    server.setScript((req) => {
      const body = req.body;
      if (taskOf(body)) {
        const answered = body.messages.find(
          (m) => m.role === 'tool' && String(m.content).startsWith('The user answered'),
        );
        if (answered) return { text: `Using ${String(answered.content).replace('The user answered: ', '')}.` };
        return { toolCalls: [{ id: 'call_ask', name: 'ask_user', arguments: '{"question": "Which region?"}' }] };
      }
      if (!isMain(body)) return { text: 'title' };
      if (hasToolResults(body)) return { text: 'Started.' };
      if (workerResults(body).length) return { text: 'Thanks, done.' };
      return startTasks({ description: 'List instances in one region' });
    });
    const conversation = await h.newConversation('Question');
    await h.call('messages:send', { conversationId: conversation.id, content: 'List instances' });
    await until(() => h.core.workers.list(conversation.id)[0]?.needsInput === true, 'the worker to ask');
    const [asking] = await h.call('workers:list', { conversationId: conversation.id });
    expect(asking).toMatchObject({ status: 'running', needsInput: true, activity: 'waiting' });
    const [question] = await h.call('questions:list', { conversationId: conversation.id });
    expect(question).toMatchObject({
      agentId: 'worker-1',
      agentName: 'Worker 1',
      workerId: asking.id,
      text: 'Which region?',
      freeText: true,
      actions: [],
    });
    const notWaiting = await h.callError('questions:answer', {
      questionId: 'no-such-question',
      reply: { kind: 'text', text: 'x' },
    });
    expect(notWaiting.code).toBe('not_found');
    const noAction = await h.callError('questions:answer', {
      questionId: question.id,
      reply: { kind: 'action', actionId: 'allow' },
    });
    expect(noAction.message).toBe("Unknown action 'allow'; this question's actions are none (answer with text).");

    expect(
      await h.call('questions:answer', { questionId: question.id, reply: { kind: 'text', text: 'eu-west-1' } }),
    ).toEqual([]);
    await until(
      () => h.messages(conversation.id).some((m) => m.content === 'Thanks, done.'),
      'the main agent to finish',
    );
    const delivered = h.messages(conversation.id).find((m) => m.origin === 'worker')!;
    expect(delivered.content).toContain('Using eu-west-1.');
    const transcript = h.messages(asking.id);
    expect(transcript.find((m) => m.role === 'tool')?.content).toBe('The user answered: eu-west-1');
    const again = await h.callError('questions:answer', {
      questionId: question.id,
      reply: { kind: 'text', text: 'late' },
    });
    expect(again).toEqual({ code: 'not_found', message: 'This question was already answered or cancelled.' });
  });
});
