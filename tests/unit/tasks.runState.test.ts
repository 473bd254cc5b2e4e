// Why an in-progress task's row is still (or that it turns), from what runs right now.
import { describe, expect, it } from 'vitest';
import type { AutopilotState, Worker } from '../../src/shared/agents';
import type { Message } from '../../src/shared/domain';
import type { Question } from '../../src/shared/questions';
import { onlyWaitingForYou, runState, stoppedLast, type AgentsNow } from '../../src/renderer/tasks/runState';

const worker = (n: number, status: Worker['status']) => ({ owner: `worker-${n}`, status }) as Worker;
const autopilot = (patch: Partial<AutopilotState>) =>
  ({ enabled: true, checking: false, continuing: null, pausedReason: null, ...patch }) as AutopilotState;
const now = (patch: Partial<AgentsNow> = {}): AgentsNow => ({
  mainRunning: false,
  mainStopped: false,
  autopilot: null,
  workers: [],
  questions: [],
  ...patch,
});
const msg = (role: Message['role'], origin: Message['origin'], status: Message['status'] = 'complete', content = '') =>
  ({ role, origin, status, content }) as Message;

describe('runState', () => {
  it('main: turns while it runs or Autopilot works for it; otherwise says why', () => {
    expect(runState('main', now({ mainRunning: true }))).toBeNull();
    expect(runState('main', now({ autopilot: autopilot({ checking: true }) }))).toBeNull();
    expect(runState('main', now({ autopilot: autopilot({ continuing: 'Next' }) }))).toBeNull();
    expect(
      runState(
        'main',
        now({ autopilot: autopilot({ pausedReason: 'Autopilot paused after 5 steps' }), mainStopped: true }),
      ),
    ).toBe('paused');
    expect(runState('main', now({ mainStopped: true }))).toBe('stopped');
    expect(runState('main', now({ workers: [worker(1, 'running')] }))).toBe('waiting for workers');
    expect(runState('main', now({ workers: [worker(1, 'done')] }))).toBe('waiting for you');
  });

  it('workers: turn while running unless they wait on a question', () => {
    const workers = [worker(1, 'running'), worker(2, 'queued'), worker(3, 'stopped')];
    expect(runState('worker-1', now({ workers }))).toBeNull();
    expect(runState('worker-1', now({ workers, questions: [{ agentId: 'worker-1' } as Question] }))).toBe(
      'waiting for you',
    );
    expect(runState('worker-2', now({ workers }))).toBe('queued');
    expect(runState('worker-3', now({ workers }))).toBe('stopped');
    expect(runState('worker-9', now({ workers }))).toBe('stopped');
  });

  it('stoppedLast: the last run ended with Stop and the user has not written since', () => {
    expect(stoppedLast([msg('user', 'user'), msg('assistant', 'user', 'stopped')])).toBe(true);
    expect(stoppedLast([msg('assistant', 'user', 'stopped'), msg('user', 'user')])).toBe(false);
    expect(
      stoppedLast([
        msg('assistant', 'user'),
        {
          ...msg('user', 'system', 'complete', ''),
          kind: 'stop_note',
          plumbing: {
            kind: 'stop_note',
            clock: '10:00:00',
            agents: [{ label: 'Main agent', activity: 'idle' }],
            tasks: null,
          },
        },
      ]),
    ).toBe(true);
    expect(stoppedLast([msg('user', 'user'), msg('assistant', 'user'), msg('tool', 'user')])).toBe(false);
    // A reply cut off by a quit or a crash: the agent is not at work any more.
    expect(stoppedLast([msg('user', 'user'), msg('assistant', 'user', 'interrupted')])).toBe(true);
  });

  it('onlyWaitingForYou: every agent at work waits on a question', () => {
    const asks = [{ agentId: 'worker-1' } as Question];
    expect(onlyWaitingForYou(now({ workers: [worker(1, 'running'), worker(2, 'done')], questions: asks }))).toBe(true);
    expect(onlyWaitingForYou(now({ workers: [worker(1, 'running'), worker(2, 'running')], questions: asks }))).toBe(
      false,
    );
    expect(onlyWaitingForYou(now({ workers: [worker(1, 'running'), worker(2, 'queued')], questions: asks }))).toBe(
      false,
    );
    expect(onlyWaitingForYou(now({ workers: [worker(1, 'running')], questions: asks, mainRunning: true }))).toBe(false);
    expect(onlyWaitingForYou(now({ workers: [worker(1, 'running')] }))).toBe(false);
  });

  it('a worker whose call waits for the plan’s approval is still, and waits for you', () => {
    const waiting = { workers: [worker(1, 'running'), worker(2, 'running')], planWaiting: ['worker-1'] };
    expect(runState('worker-1', now(waiting))).toBe('waiting for plan approval');
    expect(runState('worker-2', now(waiting))).toBeNull();
    expect(onlyWaitingForYou(now(waiting))).toBe(false);
    expect(onlyWaitingForYou(now({ ...waiting, planWaiting: ['worker-1', 'worker-2'] }))).toBe(true);
    expect(onlyWaitingForYou(now({ ...waiting, planWaiting: ['worker-1', 'worker-2'], mainRunning: true }))).toBe(
      false,
    );
  });
});
