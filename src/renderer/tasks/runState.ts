// Whether the agent that owns an in-progress task is actually running right now, and if
// not, why: the spinner turns only while it runs; otherwise the row is still and says so.
import type { AutopilotState, Worker } from '../../shared/agents';
import type { Message } from '../../shared/domain';
import type { Question } from '../../shared/questions';

export type RunHint =
  | 'paused'
  | 'waiting for you'
  | 'waiting for workers'
  | 'waiting for plan approval'
  | 'queued'
  | 'stopped';
/** null: the owner is running (spin). */
export type RunState = RunHint | null;

export interface AgentsNow {
  /** The main agent's loop runs, or Autopilot is checking or continuing for it. */
  mainRunning: boolean;
  /** The main agent's last run ended with the user's Stop. */
  mainStopped: boolean;
  autopilot: AutopilotState | null;
  workers: Worker[];
  questions: Question[];
  /** Agents (owner ids) whose call waits for the plan's approval (plan review). */
  planWaiting?: readonly string[];
}

export function runState(owner: string, now: AgentsNow): RunState {
  if (now.questions.some((q) => q.agentId === owner)) return 'waiting for you';
  if (owner === 'main') {
    if (now.mainRunning || now.autopilot?.checking || now.autopilot?.continuing) return null;
    if (now.autopilot?.enabled && now.autopilot.pausedReason) return 'paused';
    if (now.mainStopped) return 'stopped';
    // Workers' results resume the main agent by themselves.
    if (now.workers.some((w) => w.status === 'running' || w.status === 'queued')) return 'waiting for workers';
    return 'waiting for you';
  }
  const worker = now.workers.find((w) => w.owner === owner);
  if (worker?.status === 'running') return now.planWaiting?.includes(owner) ? 'waiting for plan approval' : null;
  if (worker?.status === 'queued') return 'queued';
  return 'stopped';
}

/** Every agent still at work waits on the user's answer: the header says so instead of turning. */
export function onlyWaitingForYou(now: AgentsNow): boolean {
  const waits = (owner: string) => now.questions.some((q) => q.agentId === owner) || !!now.planWaiting?.includes(owner);
  return (
    (now.questions.length > 0 || !!now.planWaiting?.length) &&
    !now.mainRunning &&
    !now.autopilot?.checking &&
    now.workers.every((w) => w.status !== 'queued' && (w.status !== 'running' || waits(w.owner)))
  );
}

/**
 * True when the conversation's last run ended with Stop: its last reply is tagged stopped (or interrupted),
 * or Stop left its summary message, and the user has not written since.
 */
export function stoppedLast(messages: readonly Message[]): boolean {
  for (let i = messages.length - 1; i >= 0 && i >= messages.length - 50; i--) {
    const m = messages[i];
    if (m.role === 'tool') continue;
    if (m.role === 'user' && m.origin === 'user') return false;
    if (m.kind === 'stop_note') return true;
    // A reply cut off by a quit or a crash left the agent stopped too (the header offers to continue).
    if (m.role === 'assistant') return m.status === 'stopped' || m.status === 'interrupted';
  }
  return false;
}
