// Messages from before message kinds: Stepwise's own messages were marked by the start
// of their text (`PLAN_APPROVED: …`, `NEXT_TODO: …`, `[Stopped at …]`…). Migration 24 and
// the import of an older export read them here into a kind and its payload; nothing else
// reads a message's text to learn what it is (tests/unit/conversations.messageKindsPrefixes.test.ts).
import { plumbingModelText, type Plumbing, type PlumbingOf, type PlanNote } from '../../../shared/messageKinds';
import type { PlanChange } from '../../../shared/planText';

export interface LegacyMessage {
  role: string;
  origin: string;
  content: string;
}

/** The kind and payload an old message stands for, or null for a message that is what its role says. */
export function plumbingFromLegacy(message: LegacyMessage): Plumbing | null {
  const { role, origin, content } = message;
  const parsed =
    role === 'user'
      ? origin === 'auto'
        ? (approved(content) ?? nextTask(content))
        : origin === 'user'
          ? changesRequested(content)
          : origin === 'system'
            ? stopNote(content)
            : origin === 'worker'
              ? workerResult(content)
              : null
      : role === 'system'
        ? (planChanged(content) ?? externalChange(content))
        : null;
  if (!parsed) return null;
  // The model reads exactly what it read before: a text the fields do not rebuild is kept.
  const rebuilt = plumbingModelText(parsed);
  return rebuilt === null || rebuilt === content ? parsed : { ...parsed, legacyText: content };
}

const APPROVED =
  /^PLAN_APPROVED: revision (\d+) · (\d+) tasks\nThe user approved the plan\. Carry it out now, starting with task (\d+) “(.*)”\.(?:\nThe user commented:\n([\s\S]*))?$/;

function approved(content: string): PlumbingOf<'plan_approved'> | null {
  const match = APPROVED.exec(content);
  if (!match) return null;
  return {
    kind: 'plan_approved',
    revision: Number(match[1]),
    taskCount: Number(match[2]),
    first: { id: Number(match[3]), title: match[4] },
    comments: match[5] === undefined ? [] : notes(match[5].split('\n')),
  };
}

const NOTE = /^- On (?:the plan|task (\d+)(?: “(.*?)”)?): ([\s\S]*)$/;

/** `- On task 2 “Draft”: …` / `- On the plan: …` lines; a line that starts no comment continues the last. */
function notes(lines: string[]): PlanNote[] {
  const out: PlanNote[] = [];
  for (const line of lines) {
    const match = NOTE.exec(line);
    if (match) {
      out.push({
        taskId: match[1] === undefined ? null : Number(match[1]),
        taskTitle: match[2] ?? null,
        text: match[3],
      });
    } else if (out.length) {
      out[out.length - 1] = { ...out[out.length - 1], text: `${out[out.length - 1].text}\n${line}` };
    }
  }
  return out;
}

function nextTask(content: string): PlumbingOf<'next_task'> | null {
  const prefix = 'NEXT_TODO: ';
  return content.startsWith(prefix) ? { kind: 'next_task', task: content.slice(prefix.length) } : null;
}

const CHANGE_PATTERNS: Array<[RegExp, (m: RegExpExecArray) => PlanChange]> = [
  [/^Added task (\d+) “(.*)”$/, (m) => ({ kind: 'added', id: Number(m[1]), title: m[2] })],
  [/^Deleted task (\d+) “(.*)”$/, (m) => ({ kind: 'deleted', id: Number(m[1]), title: m[2] })],
  [
    /^Renamed task (\d+) from “(.*)” to “(.*)”$/,
    (m) => ({ kind: 'renamed', id: Number(m[1]), title: m[3], from: m[2] }),
  ],
  [/^Moved task (\d+) “(.*)”$/, (m) => ({ kind: 'moved', id: Number(m[1]), title: m[2] })],
];

function change(text: string): PlanChange | null {
  for (const [pattern, make] of CHANGE_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return make(match);
  }
  return null;
}

function changesRequested(content: string): PlumbingOf<'changes_requested'> | null {
  const lines = content.split('\n');
  if (lines[0] !== 'PLAN_CHANGES_REQUESTED:') return null;
  const edited = lines.indexOf('The user edited the list:');
  const commented = lines.indexOf('Comments:');
  const list = lines.lastIndexOf('The list now reads:');
  if (list < 0) return null;
  const section = (at: number) => {
    if (at < 0) return [];
    const ends = [edited, commented, list].filter((i) => i > at);
    return lines.slice(at + 1, Math.min(...ends));
  };
  const edits = section(edited).map((line) => change(line.replace(/^- /, '')));
  if (edits.some((e) => e === null)) return null;
  const tasks = lines.slice(list + 1).map((line) => /^(\d+)\. (.*)$/.exec(line));
  if (tasks.some((t) => t === null)) return null;
  return {
    kind: 'changes_requested',
    edits: edits as PlanChange[],
    comments: notes(section(commented)),
    tasks: tasks.map((t) => ({ id: Number(t![1]), title: t![2] })),
  };
}

function planChanged(content: string): PlumbingOf<'plan_changed'> | null {
  const prefix = 'PLAN_CHANGED: ';
  if (!content.startsWith(prefix)) return null;
  const lines = content.split('\n');
  const beforeAt = lines.indexOf('Before:');
  const afterAt = lines.indexOf('After:');
  if (beforeAt < 1 || afterAt < beforeAt) return null;
  const head = /^(.*) \(revision (\d+)\)$/.exec(lines[0].slice(prefix.length));
  const changes = head ? head[1].split('; ').map(change) : [null];
  const titles = (from: number, to: number) => lines.slice(from, to).map((line) => line.replace(/^\d+\. /, ''));
  return {
    kind: 'plan_changed',
    revision: head ? Number(head[2]) : 0,
    changes: changes.every((c) => c !== null) ? (changes as PlanChange[]) : [],
    before: titles(beforeAt + 1, afterAt),
    after: titles(afterAt + 1, lines.length),
  };
}

const ACTIVITIES = {
  'was streaming': 'streaming',
  'was running a tool': 'tool',
  'waiting for input': 'waiting',
  idle: 'idle',
  'queued, not started': 'queued',
  'had finished': 'finished',
} as const;
const AGENT = new RegExp(`^(.+?): (${Object.keys(ACTIVITIES).join('|')})\\. `);
const TASKS =
  /^Task list: (?:none|(\d+) tasks \((\d+) pending, (\d+) in progress, (\d+) completed(?:, (\d+) cancelled)?\))\.$/;

function stopNote(content: string): PlumbingOf<'stop_note'> | null {
  const head = /^\[Stopped at (\d\d:\d\d:\d\d)\] /.exec(content);
  if (!head) return null;
  let rest = content.slice(head[0].length);
  const agents: PlumbingOf<'stop_note'>['agents'] = [];
  for (let match = AGENT.exec(rest); match; match = AGENT.exec(rest)) {
    agents.push({ label: match[1], activity: ACTIVITIES[match[2] as keyof typeof ACTIVITIES] });
    rest = rest.slice(match[0].length);
  }
  const tasks = TASKS.exec(rest);
  if (!tasks) return null;
  return {
    kind: 'stop_note',
    clock: head[1],
    agents,
    tasks:
      tasks[1] === undefined
        ? null
        : {
            pending: Number(tasks[2]),
            inProgress: Number(tasks[3]),
            completed: Number(tasks[4]),
            cancelled: Number(tasks[5] ?? 0),
          },
  };
}

const REOPEN = 'Reopen it if the result is not enough.';

function workerResult(content: string): PlumbingOf<'worker_result'> | null {
  const completed = /^Task (\d+) was completed by worker (\d+) with this result:[^\S\n]*\n?/.exec(content);
  if (completed) {
    const rest = content.slice(completed[0].length);
    const at = rest.indexOf(`\n\n${REOPEN}`);
    const body = (at >= 0 ? rest.slice(0, at) + rest.slice(at + REOPEN.length + 2) : rest).trim();
    return {
      kind: 'worker_result',
      worker: Number(completed[2]),
      taskId: Number(completed[1]),
      verb: 'finished',
      body,
    };
  }
  const match = /^Worker (\d+)(?: \(task (\d+)\))? (finished|failed):[^\S\n]*\n?/.exec(content);
  if (!match) return null;
  return {
    kind: 'worker_result',
    worker: Number(match[1]),
    taskId: match[2] ? Number(match[2]) : null,
    verb: match[3] as 'finished' | 'failed',
    body: content.slice(match[0].length).trim(),
  };
}

function externalChange(content: string): PlumbingOf<'external_change'> | null {
  const match = /^Changed by (.+?) over MCP: (.+)\.$/s.exec(content);
  return match ? { kind: 'external_change', client: match[1], what: match[2] } : null;
}
