// What a stored message is: its kind, and for the messages Stepwise itself adds to a
// conversation ("plumbing": a plan approval, Autopilot's next task, the note Stop leaves…)
// a typed payload. Nothing reads a message's text to learn what it is.
//
// Adding a plumbing kind is one entry in PLUMBING below: its payload schema, the role and
// origin it is stored with, the text the model gets (null: the model never sees it) and
// its quiet line in the transcript and the Markdown export. The renderer may give a kind a
// richer view (renderer/chat/PlumbingMessages.tsx); without one it shows the quiet line.
import { z } from 'zod';

/** One change between two versions of a plan (planText.ts: planDiff). */
export const PlanChange = z.object({
  kind: z.enum(['added', 'deleted', 'renamed', 'moved']),
  id: z.number().int(),
  title: z.string(),
  /** The title before a rename. */
  from: z.string().optional(),
});
export type PlanChange = z.infer<typeof PlanChange>;

export function describeChange(change: PlanChange): string {
  switch (change.kind) {
    case 'added':
      return `Added task ${change.id} “${change.title}”`;
    case 'deleted':
      return `Deleted task ${change.id} “${change.title}”`;
    case 'renamed':
      return `Renamed task ${change.id} from “${change.from}” to “${change.title}”`;
    case 'moved':
      return `Moved task ${change.id} “${change.title}”`;
  }
}

const TaskRef = z.object({ id: z.number().int(), title: z.string() });
/** A reviewer's comment: on a task (its title as the user saw it) or, with taskId null, on the plan. */
const PlanNote = z.object({ taskId: z.number().int().nullable(), taskTitle: z.string().nullable(), text: z.string() });
export type PlanNote = z.infer<typeof PlanNote>;

const AgentSnapshot = z.object({
  label: z.string(),
  activity: z.enum(['streaming', 'tool', 'waiting', 'idle', 'queued', 'finished']),
});
const TaskCounts = z.object({
  pending: z.number().int(),
  inProgress: z.number().int(),
  completed: z.number().int(),
  cancelled: z.number().int(),
});

/**
 * The text an older Stepwise stored for this message, kept by the migration (and an
 * import) when it could not be rebuilt exactly from the fields: the model gets it as it did.
 */
const legacyText = z.string().optional();

/** A call plan review held until the approval: runnable unless its tool is gone. */
const HeldCall = z.object({ name: z.string(), runnable: z.boolean() });
export type HeldCall = z.infer<typeof HeldCall>;

/** Calls grouped by tool, in first-seen order. */
export function callGroups<T extends { name: string }>(calls: readonly T[]): { name: string; calls: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const call of calls) {
    const group = groups.get(call.name);
    if (group) group.push(call);
    else groups.set(call.name, [call]);
  }
  return Array.from(groups, ([name, list]) => ({ name, calls: list }));
}

export const countCalls = (count: number) => `${count} ${count === 1 ? 'call' : 'calls'}`;

/** What the model hears about its calls that were held until this approval. */
function heldLines(held: readonly HeldCall[]): string[] {
  const runnable = callGroups(held.filter((c) => c.runnable));
  const gone = callGroups(held.filter((c) => !c.runnable));
  const list = (groups: typeof runnable) => groups.map((g) => `- ${g.name} (${countCalls(g.calls.length)})`);
  return [
    ...(runnable.length
      ? [
          'These calls were held until this approval and were not made; make them again now if they are still needed:',
          ...list(runnable),
        ]
      : []),
    ...(gone.length
      ? [
          'These held calls can no longer run: their tool is gone (its server disconnected or was removed):',
          ...list(gone),
        ]
      : []),
  ];
}

const schemas = {
  plan_approved: z.object({
    kind: z.literal('plan_approved'),
    revision: z.number().int(),
    taskCount: z.number().int(),
    first: TaskRef,
    comments: z.array(PlanNote),
    /** Calls held for plan review until this approval (absent when none were). */
    held: z.array(HeldCall).optional(),
    legacyText,
  }),
  changes_requested: z.object({
    kind: z.literal('changes_requested'),
    edits: z.array(PlanChange),
    comments: z.array(PlanNote),
    tasks: z.array(TaskRef),
    legacyText,
  }),
  plan_changed: z.object({
    kind: z.literal('plan_changed'),
    revision: z.number().int(),
    changes: z.array(PlanChange),
    before: z.array(z.string()),
    after: z.array(z.string()),
    legacyText,
  }),
  next_task: z.object({ kind: z.literal('next_task'), task: z.string(), legacyText }),
  continue: z.object({ kind: z.literal('continue'), task: z.string(), legacyText }),
  stop_note: z.object({
    kind: z.literal('stop_note'),
    /** The local time of the stop, HH:MM:SS. */
    clock: z.string(),
    agents: z.array(AgentSnapshot),
    tasks: TaskCounts.nullable(),
    legacyText,
  }),
  worker_result: z.object({
    kind: z.literal('worker_result'),
    worker: z.number().int(),
    taskId: z.number().int().nullable(),
    verb: z.enum(['finished', 'failed']),
    /** The result (and any note after it), shown when the line is opened. */
    body: z.string(),
    legacyText,
  }),
  external_change: z.object({ kind: z.literal('external_change'), client: z.string(), what: z.string(), legacyText }),
};

export type PlumbingKind = keyof typeof schemas;
export type PlumbingOf<K extends PlumbingKind> = z.infer<(typeof schemas)[K]>;

export const Plumbing = z.discriminatedUnion('kind', [
  schemas.plan_approved,
  schemas.changes_requested,
  schemas.plan_changed,
  schemas.next_task,
  schemas.continue,
  schemas.stop_note,
  schemas.worker_result,
  schemas.external_change,
]);
export type Plumbing = z.infer<typeof Plumbing>;

export const PLUMBING_KINDS = Object.keys(schemas) as PlumbingKind[];

/** Every stored message's kind: the person's, the model's, a tool result, a note, a summary, or plumbing. */
export const MessageKind = z.enum(['user', 'assistant', 'tool', 'note', 'summary', ...PLUMBING_KINDS]);
export type MessageKind = z.infer<typeof MessageKind>;

export interface PlumbingSpec<K extends PlumbingKind> {
  role: 'user' | 'system';
  origin: 'user' | 'auto' | 'worker' | 'system';
  /**
   * The message keeps its own text (a worker's result is content the main agent reads);
   * otherwise its stored text is empty and everything it says is made from the payload.
   */
  storesText?: true;
  /** What the model reads; null for notes the model never gets (role `system`). */
  toModel: ((payload: PlumbingOf<K>) => string) | null;
  /** One quiet line: the transcript's divider, the Markdown export's line. */
  line: (payload: PlumbingOf<K>) => string;
  /** Items under the line (Markdown export; the renderer's details). */
  details: (payload: PlumbingOf<K>) => string[];
}

const noteLine = (note: PlanNote) =>
  note.taskId === null
    ? `On the plan: ${note.text}`
    : `On task ${note.taskId}${note.taskTitle !== null ? ` “${note.taskTitle}”` : ''}: ${note.text}`;

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

const AGENT_ACTIVITY: Record<z.infer<typeof AgentSnapshot>['activity'], string> = {
  streaming: 'was streaming',
  tool: 'was running a tool',
  waiting: 'waiting for input',
  idle: 'idle',
  queued: 'queued, not started',
  finished: 'had finished',
};

function stopParts(payload: PlumbingOf<'stop_note'>): string[] {
  const parts = payload.agents.map((agent) => `${agent.label}: ${AGENT_ACTIVITY[agent.activity]}.`);
  const t = payload.tasks;
  if (!t) return [...parts, 'Task list: none.'];
  const total = t.pending + t.inProgress + t.completed + t.cancelled;
  const cancelled = t.cancelled ? `, ${t.cancelled} cancelled` : '';
  return [
    ...parts,
    `Task list: ${total} tasks (${t.pending} pending, ${t.inProgress} in progress, ${t.completed} completed${cancelled}).`,
  ];
}

const workerLine = (p: PlumbingOf<'worker_result'>) => {
  const task = p.taskId !== null ? ` task ${p.taskId}` : '';
  return p.verb === 'finished'
    ? `Worker ${p.worker} finished${task}`
    : `Worker ${p.worker} failed${task ? ` on${task}` : ''}`;
};

// The model's texts are the ones Stepwise sent before message kinds, word for word: a
// conversation reads the same to the model after the migration.
export const PLUMBING: { [K in PlumbingKind]: PlumbingSpec<K> } = {
  plan_approved: {
    role: 'user',
    origin: 'auto',
    toModel: (p) =>
      [
        `PLAN_APPROVED: revision ${p.revision} · ${p.taskCount} tasks`,
        `The user approved the plan. Carry it out now, starting with task ${p.first.id} “${p.first.title}”.`,
        ...(p.comments.length ? ['The user commented:', ...p.comments.map((c) => `- ${noteLine(c)}`)] : []),
        ...heldLines(p.held ?? []),
      ].join('\n'),
    line: (p) => `Plan approved · ${plural(p.taskCount, 'task')} · revision ${p.revision}`,
    details: (p) => p.comments.map(noteLine),
  },
  changes_requested: {
    role: 'user',
    origin: 'user',
    toModel: (p) =>
      [
        'PLAN_CHANGES_REQUESTED:',
        'The user reviewed the plan and asks for changes. Revise the task list with your task tools, then end your turn so the user can review it again. Do not start the work yet.',
        ...(p.edits.length ? ['The user edited the list:', ...p.edits.map((e) => `- ${describeChange(e)}`)] : []),
        ...(p.comments.length ? ['Comments:', ...p.comments.map((c) => `- ${noteLine(c)}`)] : []),
        'The list now reads:',
        ...p.tasks.map((t) => `${t.id}. ${t.title}`),
      ].join('\n'),
    line: (p) =>
      `Changes requested: ${[
        p.edits.length ? plural(p.edits.length, 'edit') : '',
        p.comments.length ? plural(p.comments.length, 'comment') : '',
      ]
        .filter(Boolean)
        .join(', ')}`.replace(/: $/, ''),
    details: (p) => [...p.edits.map(describeChange), ...p.comments.map(noteLine)],
  },
  plan_changed: {
    role: 'system',
    origin: 'system',
    toModel: null,
    line: (p) => `Plan changed: ${p.changes.map(describeChange).join('; ')} (revision ${p.revision})`,
    details: (p) => [`Before: ${p.before.join(' · ')}`, `After: ${p.after.join(' · ')}`],
  },
  next_task: {
    role: 'user',
    origin: 'auto',
    toModel: (p) => `NEXT_TODO: ${p.task}`,
    line: (p) => `Continuing: ${p.task}`,
    details: () => [],
  },
  continue: {
    role: 'user',
    origin: 'auto',
    toModel: (p) => `NEXT_TODO: ${p.task}`,
    line: (p) => `Continuing: ${p.task}`,
    details: () => [],
  },
  stop_note: {
    role: 'user',
    origin: 'system',
    toModel: (p) => `[Stopped at ${p.clock}] ${stopParts(p).join(' ')}`,
    line: (p) => `Stopped at ${p.clock}`,
    details: stopParts,
  },
  worker_result: {
    role: 'user',
    origin: 'worker',
    storesText: true,
    toModel: null,
    line: workerLine,
    details: () => [],
  },
  external_change: {
    role: 'system',
    origin: 'system',
    toModel: null,
    line: (p) => `Changed by ${p.client} over MCP: ${p.what}.`,
    details: () => [],
  },
};

function spec<K extends PlumbingKind>(kind: K): PlumbingSpec<K> {
  return PLUMBING[kind];
}

/** The text the model reads for a plumbing message; null when it reads the stored text (or nothing). */
export function plumbingModelText(payload: Plumbing): string | null {
  if (payload.legacyText !== undefined) return payload.legacyText;
  const toModel = spec(payload.kind).toModel as ((p: Plumbing) => string) | null;
  return toModel ? toModel(payload) : null;
}

export function plumbingLine(payload: Plumbing): string {
  return (spec(payload.kind).line as (p: Plumbing) => string)(payload);
}

export function plumbingDetails(payload: Plumbing): string[] {
  return (spec(payload.kind).details as (p: Plumbing) => string[])(payload);
}

/** Where a plumbing message is stored: its role and origin. */
export function plumbingPlace(payload: Plumbing): {
  role: 'user' | 'system';
  origin: PlumbingSpec<PlumbingKind>['origin'];
} {
  const { role, origin } = spec(payload.kind);
  return { role, origin };
}

/** What the JSON export writes for a plumbing message's payload: its fields without the kind. */
export function payloadFields(payload: Plumbing): Record<string, unknown> {
  const { kind: _kind, ...fields } = payload;
  return fields;
}

/** Whether a plumbing message keeps its own text (else its content is stored empty). */
export function plumbingStoresText(payload: Plumbing): boolean {
  return spec(payload.kind).storesText === true;
}

export function isPlumbingKind(kind: string): kind is PlumbingKind {
  return (PLUMBING_KINDS as string[]).includes(kind);
}

/** What the model reads of a stored message: a plumbing kind's text is made here, when the request is built. */
export function modelText(message: { content: string; plumbing?: Plumbing | null }): string {
  return message.plumbing ? (plumbingModelText(message.plumbing) ?? message.content) : message.content;
}
