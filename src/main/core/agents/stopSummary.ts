// The one message "Stop" leaves in the conversation: what every agent was doing and
// where the task list stood, so the model can continue from it when asked.
export type AgentActivity = 'streaming' | 'tool' | 'waiting' | 'idle' | 'queued' | 'finished';

export interface AgentSnapshot {
  label: string;
  activity: AgentActivity;
}

export interface TaskCounts {
  pending: number;
  inProgress: number;
  completed: number;
  cancelled: number;
}

const ACTIVITY_TEXT: Record<AgentActivity, string> = {
  streaming: 'was streaming',
  tool: 'was running a tool',
  waiting: 'waiting for input',
  idle: 'idle',
  queued: 'queued, not started',
  finished: 'had finished',
};

function clock(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function formatStopSummary(at: Date, agents: AgentSnapshot[], tasks: TaskCounts | null): string {
  const parts = agents.map((agent) => `${agent.label}: ${ACTIVITY_TEXT[agent.activity]}.`);
  if (tasks) {
    const total = tasks.pending + tasks.inProgress + tasks.completed + tasks.cancelled;
    const cancelled = tasks.cancelled ? `, ${tasks.cancelled} cancelled` : '';
    parts.push(
      `Task list: ${total} tasks (${tasks.pending} pending, ${tasks.inProgress} in progress, ${tasks.completed} completed${cancelled}).`,
    );
  } else {
    parts.push('Task list: none.');
  }
  return `[Stopped at ${clock(at)}] ${parts.join(' ')}`;
}

/** A worker's label in the summary: `Worker 1 "List EC2 instances"`. */
export function workerLabel(number: number, description: string): string {
  const short = description.length > 60 ? `${description.slice(0, 57)}…` : description;
  return `Worker ${number} "${short}"`;
}
