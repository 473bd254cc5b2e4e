// Reads a `stepwise.conversation` file and says precisely why one cannot be imported:
// not a Stepwise export, written by a newer Stepwise, or malformed. Nothing is written
// here; conversationWrite.ts stores a file that passed every check.
import { z } from 'zod';
import {
  CONVERSATION_FORMAT,
  CONVERSATION_VERSION,
  ConversationExport,
  ConversationExportV1,
  TASKS_FORMAT,
} from '../../../shared/exportFormat';
import { findCycle } from '../tasks/taskRules';
import { MESSAGE_MAX, TITLE_MAX } from '../../../shared/domain';
import { TASK_TITLE_MAX } from '../../../shared/tasks';
import { treeProblems } from '../versions/fileTree';

/** The most messages (main transcript and workers together) one imported conversation may hold. */
export const IMPORT_MESSAGES_MAX = 100_000;
import { AppError } from '../ipc/dispatcher';
import { kindProblems } from './importedKinds';

export type ImportRefusal = 'not-stepwise' | 'newer-version' | 'malformed' | 'over-limit';

export class ImportRefused extends AppError {
  constructor(
    readonly reason: ImportRefusal,
    message: string,
  ) {
    super('invalid_request', message);
    this.name = 'ImportRefused';
  }
}

const ISSUES_SHOWN = 5;

function notStepwise(detail: string): ImportRefused {
  return new ImportRefused(
    'not-stepwise',
    `This file is not a Stepwise conversation export: ${detail}. Nothing was imported.`,
  );
}

function malformed(detail: string): ImportRefused {
  return new ImportRefused(
    'malformed',
    `This Stepwise conversation export is malformed: ${detail}. Nothing was imported.`,
  );
}

function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, ISSUES_SHOWN).map((issue) => {
    const where = issue.path.map(String).join('.');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - ISSUES_SHOWN;
  return issues.join('; ') + (more > 0 ? ` (and ${more} more ${more === 1 ? 'problem' : 'problems'})` : '');
}

/** Parses and checks an export; throws ImportRefused naming the first problems found. */
export function parseConversationExport(text: string): ConversationExport {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw notStepwise(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw notStepwise('it is not a JSON object');
  return parseConversationData(data);
}

/** Checks one parsed `stepwise.conversation` object (a whole file, or one of a folder export). */
export function parseConversationData(data: object): ConversationExport {
  const { format, version } = data as Record<string, unknown>;
  if (format === TASKS_FORMAT) {
    throw notStepwise(
      'it is a task list export (stepwise.tasks), which holds no messages; import a conversation export instead',
    );
  }
  if (format !== CONVERSATION_FORMAT) {
    throw notStepwise(
      format === undefined
        ? `it has no "format": "${CONVERSATION_FORMAT}" field`
        : `its format is ${JSON.stringify(format)}`,
    );
  }
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw malformed(`"version" must be a whole number from 1 (got ${JSON.stringify(version) ?? 'nothing'})`);
  }
  if (version > CONVERSATION_VERSION) {
    throw new ImportRefused(
      'newer-version',
      `This conversation was exported by a newer version of Stepwise (format version ${version}; this version reads up to ${CONVERSATION_VERSION}). ` +
        'Update Stepwise to import it. Nothing was imported.',
    );
  }
  const parsed = version === 1 ? upgradeV1(ConversationExportV1.safeParse(data)) : ConversationExport.safeParse(data);
  if (!parsed.success) throw malformed(describeIssues(parsed.error));
  const overLimit = limitProblems(parsed.data);
  if (overLimit.length) {
    throw new ImportRefused(
      'over-limit',
      `This conversation export is over Stepwise's limits: ${overLimit.slice(0, ISSUES_SHOWN).join('; ')}. Nothing was imported.`,
    );
  }
  const problems = consistencyProblems(parsed.data);
  if (problems.length) throw malformed(problems.slice(0, ISSUES_SHOWN).join('; '));
  return parsed.data;
}

/** A version 1 file is a version 2 file whose tasks made no recorded tool calls. */
function upgradeV1(
  parsed: z.ZodSafeParseResult<ConversationExportV1>,
): { success: true; data: ConversationExport } | { success: false; error: z.ZodError } {
  if (!parsed.success) return parsed;
  const { data } = parsed;
  return {
    success: true,
    data: {
      ...data,
      version: CONVERSATION_VERSION,
      taskLists: data.taskLists.map((list) => ({
        ...list,
        tasks: list.tasks.map((task) => ({ ...task, toolCalls: [] })),
      })),
    },
  };
}

/** The same limits the app applies when the user types: titles, message size, and count. */
function limitProblems(data: ConversationExport): string[] {
  const problems: string[] = [];
  const chars = (text: string) => text.trim().length;
  if (chars(data.conversation.title) > TITLE_MAX) {
    problems.push(`the title is ${chars(data.conversation.title)} characters (at most ${TITLE_MAX})`);
  }
  for (const worker of data.workers) {
    if (chars(worker.title) > TITLE_MAX)
      problems.push(`worker ${worker.number}'s title is ${chars(worker.title)} characters (at most ${TITLE_MAX})`);
  }
  for (const [index, list] of data.taskLists.entries()) {
    for (const task of list.tasks) {
      if (chars(task.title) > TASK_TITLE_MAX) {
        problems.push(
          `taskLists.${index}: task ${task.id}'s title is ${chars(task.title)} characters (at most ${TASK_TITLE_MAX})`,
        );
      }
    }
  }
  const messages = [...data.messages, ...data.workers.flatMap((w) => w.messages)];
  if (messages.length > IMPORT_MESSAGES_MAX)
    problems.push(`it holds ${messages.length} messages (at most ${IMPORT_MESSAGES_MAX})`);
  // The user's own messages are capped in the app; the model's replies are not.
  for (const message of messages) {
    if (message.role === 'user' && message.content.length > MESSAGE_MAX) {
      problems.push(
        `message ${message.id} (from the user) is ${message.content.length} characters (at most ${MESSAGE_MAX})`,
      );
    }
  }
  return problems;
}

/** What the schema cannot express: references, uniqueness, and the task rules' invariants. */
function consistencyProblems(data: ConversationExport): string[] {
  const problems: string[] = [];
  const messages = [...data.messages, ...data.workers.flatMap((w) => w.messages)];
  const messageIds = new Set<number>();
  for (const message of messages) {
    problems.push(...kindProblems(message));
    if (messageIds.has(message.id)) problems.push(`message id ${message.id} is used more than once`);
    messageIds.add(message.id);
  }
  problems.push(...treeProblems(data.messages, 'messages:'));
  for (const worker of data.workers) problems.push(...treeProblems(worker.messages, `worker ${worker.number}:`));
  const eventIds = new Set<number>();
  const listIds = new Set<number>();
  let openLists = 0;
  for (const [index, list] of data.taskLists.entries()) {
    const where = `taskLists.${index}`;
    if (listIds.has(list.id)) problems.push(`${where}: list id ${list.id} is used more than once`);
    listIds.add(list.id);
    if (list.closedAt === null) openLists++;
    const seqs = new Set<number>();
    for (const task of list.tasks) {
      if (seqs.has(task.id)) problems.push(`${where}: task id ${task.id} is used more than once`);
      seqs.add(task.id);
      if (task.lastMessageId !== null && !messageIds.has(task.lastMessageId)) {
        problems.push(`${where}: task ${task.id} refers to message ${task.lastMessageId}, which is not in the file`);
      }
      for (const call of task.toolCalls) {
        if (call.messageId !== null && !messageIds.has(call.messageId)) {
          problems.push(
            `${where}: a tool call of task ${task.id} refers to message ${call.messageId}, which is not in the file`,
          );
        }
      }
    }
    for (const task of list.tasks) {
      if (task.blockedBy.includes(task.id)) problems.push(`${where}: task ${task.id} is blocked by itself`);
      const missing = task.blockedBy.filter((id) => !seqs.has(id));
      if (missing.length)
        problems.push(`${where}: task ${task.id} is blocked by ${missing.join(', ')}, not in the list`);
      if (new Set(task.blockedBy).size !== task.blockedBy.length)
        problems.push(`${where}: task ${task.id} lists a blocker twice`);
    }
    const cycle = findCycle(list.tasks.map((t) => ({ ...t, blockedBy: t.blockedBy.filter((id) => id !== t.id) })));
    if (cycle) problems.push(`${where}: dependencies form a cycle (${cycle.join(' → ')})`);
    const inProgress = new Map<string, number>();
    for (const task of list.tasks.filter((t) => t.status === 'in_progress')) {
      inProgress.set(task.owner, (inProgress.get(task.owner) ?? 0) + 1);
    }
    for (const [owner, count] of inProgress) {
      if (count > 1) problems.push(`${where}: ${count} tasks of owner ${owner} are in_progress (at most one may be)`);
    }
    for (const event of [...list.events, ...list.tasks.flatMap((t) => t.events)]) {
      if (eventIds.has(event.id)) problems.push(`${where}: event id ${event.id} is used more than once`);
      eventIds.add(event.id);
    }
  }
  if (openLists > 1) problems.push(`${openLists} task lists are open (a conversation has at most one)`);
  const revisions = new Set<string>();
  for (const [index, plan] of (data.planRevisions ?? []).entries()) {
    if (!listIds.has(plan.list)) problems.push(`planRevisions.${index}: list ${plan.list} is not in taskLists`);
    const key = `${plan.list}/${plan.revision}`;
    if (revisions.has(key))
      problems.push(`planRevisions.${index}: revision ${plan.revision} of list ${plan.list} is there twice`);
    revisions.add(key);
  }
  const workerNumbers = new Set<number>();
  for (const worker of data.workers) {
    if (workerNumbers.has(worker.number)) problems.push(`worker number ${worker.number} is used more than once`);
    workerNumbers.add(worker.number);
  }
  return problems;
}
