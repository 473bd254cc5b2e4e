// Autopilot's "no progress" rule (autopilot/stepProgress.ts): what counts as progress in a
// step, and when idle steps add up to a pause.
import { describe, expect, it } from 'vitest';
import {
  madeProgress,
  nextIdle,
  noProgressReason,
  statusKey,
  stepCalledTools,
} from '../../src/main/core/autopilot/stepProgress';
import type { Message } from '../../src/shared/domain';
import type { TaskList, TaskStatus } from '../../src/shared/tasks';

const list = (...statuses: TaskStatus[]): TaskList => ({
  id: 1,
  conversationId: '11111111-1111-4111-8111-111111111111',
  createdAt: 0,
  closedAt: null,
  tasks: statuses.map((status, i) => ({
    id: i + 1,
    title: `Step ${i + 1}`,
    description: '',
    activeForm: '',
    status,
    owner: 'main',
    position: i,
    blockedBy: [],
    openBlockers: [],
    createdAt: 0,
    updatedAt: 0,
    completedAt: null,
    lastMessageId: null,
  })),
});

let nextId = 1;
const message = (role: Message['role'], content: string, extra: Partial<Message> = {}) =>
  ({
    id: nextId++,
    conversationId: '11111111-1111-4111-8111-111111111111',
    role,
    content,
    origin: 'user',
    toolCalls: null,
    ...extra,
  }) as Message;
const step = message('user', '', {
  origin: 'auto',
  kind: 'next_task',
  plumbing: { kind: 'next_task', task: 'Step 1' },
});
const call = message('assistant', '', { toolCalls: [{ id: 'c1', name: 'think', arguments: '{}' }] });

describe('a step', () => {
  it('made progress when it called a tool after its next-task message', () => {
    expect(stepCalledTools([step, call, message('tool', 'ok'), message('assistant', 'Done.')])).toBe(true);
    expect(stepCalledTools([step, message('assistant', 'Thinking about it.')])).toBe(false);
    // A call before the step belongs to an earlier turn.
    expect(stepCalledTools([call, step, message('assistant', 'Thinking.')])).toBe(false);
  });

  it('made progress when any task status changed, whoever changed it', () => {
    const before = statusKey(list('in_progress', 'pending'));
    expect(madeProgress(before, list('in_progress', 'pending'), [step])).toBe(false);
    expect(madeProgress(before, list('completed', 'in_progress'), [step])).toBe(true);
    expect(madeProgress(before, null, [step])).toBe(true);
    expect(statusKey(null)).toBe('');
  });
});

describe('idle steps', () => {
  it('add up on one task, start again on another, and end with progress', () => {
    const one = nextIdle(null, 3, false);
    expect(one).toEqual({ taskId: 3, count: 1 });
    expect(nextIdle(one, 3, false)).toEqual({ taskId: 3, count: 2 });
    expect(nextIdle(one, 4, false)).toEqual({ taskId: 4, count: 1 });
    expect(nextIdle(one, 3, true)).toBeNull();
  });

  it('pause with a reason that names the task', () => {
    expect(noProgressReason({ id: 3, title: 'Send report' })).toMatch(/^No progress on task 3 “Send report”/);
  });
});
