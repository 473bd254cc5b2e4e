// The one-line labels of plumbing cards, read from a call's arguments and result.
import { describe, expect, it } from 'vitest';
import { workerCompletedMessage, workerResultHeader } from '../../src/shared/agents';
import type { Message } from '../../src/shared/domain';
import { plannedCalls, summarize, type ToolCallView } from '../../src/renderer/chat/toolSummary';
import { plumbingFromLegacy } from '../../src/main/core/db/legacyMessages';
/** A worker's result read back as migration 24 reads old messages (db/legacyMessages.ts). */
function parseWorkerResult(content: string) {
  const payload = plumbingFromLegacy({ role: 'user', origin: 'worker', content });
  if (payload?.kind !== 'worker_result') return null;
  const { kind: _kind, ...fields } = payload;
  return fields;
}

let nextId = 1;
function view(name: string, args: unknown, result: string | null): ToolCallView {
  const id = `call_${nextId++}`;
  const message =
    result === null ? null : ({ id: nextId, role: 'tool', content: result, toolCallId: id } as unknown as Message);
  return { call: { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }, result: message };
}
const list = (...statuses: string[]) => ({
  todoList: statuses.map((status, i) => ({ id: i + 1, title: `T${i + 1}`, status })),
});

describe('plumbing card labels', () => {
  it('a list is planned once, then updated; a clear starts over; refused calls plan nothing', () => {
    const views = [
      view(
        'manage_todo_list',
        list('pending', 'bogus'),
        'Error: status must be one of … The task list was not changed.',
      ),
      view('manage_todo_list', list('in_progress', 'pending', 'pending'), 'Task list updated: 0/3 completed'),
      view(
        'manage_todo_list',
        list('completed', 'cancelled', 'in_progress'),
        'Task list updated: 1/2 completed, 1 cancelled',
      ),
      // The stored list (here with the user's tick kept) is what the line counts.
      view(
        'manage_todo_list',
        list('completed', 'pending', 'pending'),
        "Task list updated: 2/3 completed\nKept the user's changes: task 2 stays completed.",
      ),
      view('manage_todo_list', { todoList: [] }, 'Task list cleared: it had no items left, so it was closed.'),
      view('manage_todo_list', { todoList: JSON.stringify(list('in_progress', 'pending').todoList) }, null),
    ];
    const planned = plannedCalls(views);
    expect(views.map((v) => summarize(v, planned.has(v.call.id)).label)).toEqual([
      'Task change refused',
      'Planned 3 tasks',
      'Updated tasks · 1/2 done',
      'Updated tasks · 2/3 done',
      'Cleared the task list',
      'Planned 2 tasks',
    ]);
  });

  it('start_task names the worker once it has started; think and other tools', () => {
    const args = { task_description: 'Count north basket\nand nothing else', taskId: 4 };
    expect(summarize(view('start_task', args, null), false)).toEqual({
      icon: 'worker',
      label: 'Starting a worker · Count north basket',
    });
    expect(
      summarize(view('start_task', args, '{"task_id":"worker-2","worker":2,"status":"started"}'), false).label,
    ).toBe('Started worker 2 · Count north basket');
    expect(summarize(view('think', { thought: 'x' }, 'Thought recorded'), false)).toEqual({
      icon: 'thought',
      label: 'Thought for a moment',
    });
    expect(summarize(view('get_current_time', {}, '{}'), false)).toEqual({ icon: 'tool', label: null });
  });

  it('reads back the worker result header it writes', () => {
    expect(parseWorkerResult(`${workerResultHeader(2, 2, 'finished')}\n\nNine apples.`)).toEqual({
      worker: 2,
      taskId: 2,
      verb: 'finished',
      body: 'Nine apples.',
    });
    expect(parseWorkerResult(`${workerResultHeader(3, null, 'failed')}\n\n{}`)).toEqual({
      worker: 3,
      taskId: null,
      verb: 'failed',
      body: '{}',
    });
    expect(parseWorkerResult(workerCompletedMessage(2, 4, 'Nine apples.\n\nAll red.'))).toEqual({
      worker: 2,
      taskId: 4,
      verb: 'finished',
      body: 'Nine apples.\n\nAll red.',
    });
    expect(
      parseWorkerResult(`${workerCompletedMessage(2, 4, 'Nine.')}\n\nTask 5 is handed back to you, still in progress.`)
        ?.body,
    ).toBe('Nine.\n\nTask 5 is handed back to you, still in progress.');
    expect(parseWorkerResult('Worker bees are busy.')).toBeNull();
  });
});

describe('a transcript loaded from the middle', () => {
  it('does not call its first update a plan', () => {
    const first = view('manage_todo_list', list('completed', 'in_progress'), 'Task list updated: 1/2 completed');
    expect(plannedCalls([first], true).has(first.call.id)).toBe(false);
    expect(plannedCalls([first]).has(first.call.id)).toBe(true);
  });
});
