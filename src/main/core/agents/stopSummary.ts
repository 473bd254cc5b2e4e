// The one message "Stop" leaves in the conversation: what every agent was doing and
// where the task list stood, so the model can continue from it when asked.
import type { PlumbingOf } from '../../../shared/messageKinds';

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

function clock(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** The stop note's payload (its text for the model: shared/messageKinds.ts). */
export function stopNote(at: Date, agents: AgentSnapshot[], tasks: TaskCounts | null): PlumbingOf<'stop_note'> {
  return { kind: 'stop_note', clock: clock(at), agents, tasks };
}

/** A worker's label in the summary: `Worker 1 "List EC2 instances"`. */
export function workerLabel(number: number, description: string): string {
  const short = description.length > 60 ? `${description.slice(0, 57)}…` : description;
  return `Worker ${number} "${short}"`;
}
