// What the assessor is asked: a short system prompt, the current task, and the last turn
// (the last assistant text and a one-line summary of its tool calls). Pure, so the
// exact wording is easy to read and test.
import type { Message } from '../../../shared/domain';

export const ASSESSOR_SYSTEM = [
  'You are the assessor of Stepwise Autopilot. An AI assistant works through a task list one task at a time.',
  "Decide whether the assistant's last turn finished the current task.",
  'Answer with one JSON object and nothing else: {"done": true or false, "reason": "one short sentence"}.',
  '- "done": true only when the last turn shows the work of the task was actually carried out and finished, not merely planned, started or promised.',
  '- "done": false when work remains, something failed, or the assistant asked the user a question or for a decision.',
  '- When in doubt, answer false.',
].join('\n');

/** The end of a long reply says most about whether the work is finished. */
const TEXT_MAX = 4000;
const TOOLS_MAX = 20;

export interface LastTurn {
  /** The last non-empty assistant text of the turn ('' when it only called tools). */
  text: string;
  /** e.g. `manage_todo_list ×2, get_current_time`; '' when it called none. */
  tools: string;
}

/** The messages after the last user-role message (any origin): one turn of the agent. */
export function lastTurn(history: readonly Message[]): LastTurn {
  const start = history.findLastIndex((m) => m.role === 'user') + 1;
  const turn = history.slice(start).filter((m) => m.role === 'assistant');
  const text = turn.findLast((m) => m.content.trim())?.content.trim() ?? '';
  const counts = new Map<string, number>();
  for (const message of turn) {
    for (const call of message.toolCalls ?? []) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  }
  const names = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
  const tools =
    names.length > TOOLS_MAX
      ? `${names.slice(0, TOOLS_MAX).join(', ')} and ${names.length - TOOLS_MAX} more`
      : names.join(', ');
  return { text, tools };
}

export interface AssessedTask {
  id: number;
  title: string;
  description: string;
}

export function assessorUserMessage(task: AssessedTask, turn: LastTurn): string {
  const text = turn.text.length > TEXT_MAX ? `…${turn.text.slice(-TEXT_MAX)}` : turn.text;
  const head = [`Current task (${task.id}): ${task.title}`];
  if (task.description) head.push(`Description: ${task.description}`);
  return [
    ...head,
    '',
    "The assistant's last turn:",
    `Tool calls: ${turn.tools || 'none'}`,
    'Last text:',
    text ? `"""\n${text}\n"""` : '(no text)',
  ].join('\n');
}
