import { describe, expect, it } from 'vitest';
import { stopNote, workerLabel } from '../../src/main/core/agents/stopSummary';
import { plumbingModelText } from '../../src/shared/messageKinds';

/** The stop note as the model reads it (made from its payload when a request is built). */
const formatStopSummary = (...args: Parameters<typeof stopNote>) => plumbingModelText(stopNote(...args));

describe('formatStopSummary', () => {
  it('names every agent state and the task counts, like the issue example', () => {
    const text = formatStopSummary(
      new Date(2026, 10, 22, 14, 32, 15),
      [
        { label: 'Main agent', activity: 'streaming' },
        { label: workerLabel(1, 'List EC2 instances'), activity: 'tool' },
        { label: 'Worker 2', activity: 'waiting' },
        { label: 'Worker 3', activity: 'queued' },
      ],
      { pending: 1, inProgress: 2, completed: 0, cancelled: 0 },
    );
    expect(text).toBe(
      '[Stopped at 14:32:15] Main agent: was streaming. Worker 1 "List EC2 instances": was running a tool. ' +
        'Worker 2: waiting for input. Worker 3: queued, not started. Task list: 3 tasks (1 pending, 2 in progress, 0 completed).',
    );
  });

  it('says when there is no task list and counts cancelled tasks only when present', () => {
    expect(formatStopSummary(new Date(2026, 0, 1, 9, 5, 7), [{ label: 'Main agent', activity: 'idle' }], null)).toBe(
      '[Stopped at 09:05:07] Main agent: idle. Task list: none.',
    );
    expect(
      formatStopSummary(new Date(2026, 0, 1, 9, 5, 7), [], { pending: 0, inProgress: 0, completed: 2, cancelled: 1 }),
    ).toContain('Task list: 3 tasks (0 pending, 0 in progress, 2 completed, 1 cancelled).');
  });

  it('shortens long worker descriptions', () => {
    const label = workerLabel(4, 'x'.repeat(100));
    expect(label.length).toBeLessThan(75);
    expect(label.startsWith('Worker 4 "')).toBe(true);
  });
});
