// When a routine's run has ended, and how: completed, waiting for you (an approval, a
// question, a plan review, Autopilot pausing, tasks left with Autopilot off), failed (with
// the reason) or stopped. Read from the other modules' public state after each change, so
// a run is never called over while its agent, Autopilot or a worker still goes.
import type { Message } from '../../../shared/domain';
import type { TaskList } from '../../../shared/tasks';
import type { RunEnd } from './scheduler';

export interface TurnEnd {
  outcome: string;
  error: { message: string } | null;
}

/** The public state of the modules a run goes through (typed structurally: routines imports none of them). */
export interface RunState {
  approvals: { list(conversationId: string): { toolName: string }[] };
  questions: { list(conversationId: string): { text: string }[] };
  chat: { isRunning(conversationId: string): boolean };
  autopilot: {
    state(conversationId: string): { checking: boolean; continuing: string | null; pausedReason: string | null };
  };
  workers: { active(conversationId: string): boolean };
  plans: { state(conversationId: string): { phase: string; amendment: unknown } };
  tasks: { get(conversationId: string): TaskList | null };
  messages: { all(conversationId: string): Message[] };
}

const waiting = (detail: string): RunEnd => ({ status: 'waiting', detail });

/** The first line of the last reply of the conversation's own agent (what Activity shows). */
export function firstLineOfReply(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant' || m.status !== 'complete') continue;
    const line = m.content
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0);
    if (line) return line.length > 300 ? `${line.slice(0, 299)}…` : line;
  }
  return '';
}

/** null while the run still goes; otherwise how it ended. `last` is its latest finished turn. */
export function runOutcome(state: RunState, conversationId: string, last: TurnEnd | null): RunEnd | null {
  const approval = state.approvals.list(conversationId)[0];
  if (approval) return waiting(`Waiting for you to approve ${approval.toolName}.`);
  const question = state.questions.list(conversationId)[0];
  if (question) return waiting(`Waiting for your answer: ${question.text}`);
  if (state.chat.isRunning(conversationId) || state.workers.active(conversationId)) return null;
  const autopilot = state.autopilot.state(conversationId);
  if (autopilot.checking || autopilot.continuing) return null;
  if (!last) return null;
  if (last.outcome === 'error') return { status: 'failed', detail: last.error?.message ?? 'The run failed.' };
  if (last.outcome === 'stopped') return { status: 'stopped', detail: 'Stopped.' };
  const plan = state.plans.state(conversationId);
  if (plan.amendment) return waiting('Waiting for you to approve or reject a change to the plan.');
  if (plan.phase === 'review') return waiting('Waiting for you to review the plan.');
  if (autopilot.pausedReason) return waiting(autopilot.pausedReason);
  const list = state.tasks.get(conversationId);
  const open = list?.tasks.filter((t) => t.status === 'pending' || t.status === 'in_progress').length ?? 0;
  if (open > 0) {
    return waiting(`${open} of ${list!.tasks.length} tasks are still open. Open the run to continue them.`);
  }
  return { status: 'completed', detail: firstLineOfReply(state.messages.all(conversationId)) || null };
}
