// Task lists as a GitHub-flavoured Markdown task list (renders on GitHub and in Obsidian):
// `- [x]` completed, `- [ ]` pending or in progress, cancelled tasks struck through as
// plain items, so a viewer's checkbox count equals Stepwise's progress (completed out of
// the tasks that are not cancelled).
import { openBlockersOf, type RuleTask } from '../tasks/taskRules';
import { progressOf } from '../../../shared/taskProgress';
import { revealBidiControls } from '../../../shared/bidi';
import { maskSecretArguments } from '../ledger/maskSecrets';
import type { ReadConversation, ReadList, ReadTask, ReadToolCall } from './exportReader';
import type { RoutineExport } from '../../../shared/routinesExport';
import { routinesMarkdown } from '../../../shared/routinesMarkdown';
import { codeSpan, escapeMarkdownLine, escapeMarkdownLines, formatUtc, truncate } from '../../../shared/markdownText';

const ARGUMENTS_MAX = 80;

export interface TasksDocument {
  exportedAt: number;
  /** `across`: the open tasks across conversations (what the task board shows). */
  scope: 'open' | 'history' | 'all' | 'across';
  conversations: Array<{ conversation: ReadConversation; lists: ReadList[] }>;
  /** Every routine with its runs: only in the export of every task list (scope `all`). */
  routines?: RoutineExport[];
}

export function progressLine(tasks: readonly ReadTask[]): string {
  const { done, total } = progressOf(tasks);
  return `Progress: ${done}/${total}`;
}

type BySeq = ReadonlyMap<number, RuleTask>;

/** A list's tasks by their id, as the task rules look them up. */
export function indexBySeq(tasks: readonly ReadTask[]): BySeq {
  return new Map(tasks.map((t) => [t.seq, { ...t, id: t.seq }]));
}

/** One task as a list item, with its description as indented lines under it. */
export function taskItem(task: ReadTask, bySeq: BySeq): string {
  const title = escapeMarkdownLine(task.title) || '(untitled)';
  const notes: string[] = [];
  if (task.status === 'in_progress') notes.push('in progress');
  if (task.status === 'pending' || task.status === 'in_progress') {
    const open = openBlockersOf({ ...task, id: task.seq }, bySeq);
    if (open.length) notes.push(`blocked by ${open.map((seq) => `#${seq}`).join(', ')}`);
  }
  if (task.status === 'cancelled') notes.push('cancelled');
  if (task.owner !== 'main') notes.push(`owner: ${escapeMarkdownLine(task.owner)}`);
  // Another agent's change shows as in the header (docs/tools.md, "Sharing task lists"):
  // the task's own column, since a reorder is an event of the list, not of the task.
  if (task.changedBy) notes.push(`changed by ${escapeMarkdownLine(task.changedBy)}`);

  const suffix = notes.map((note) => ` _(${note})_`).join('');
  const head =
    task.status === 'completed'
      ? `- [x] ${title}${suffix}`
      : task.status === 'cancelled'
        ? `- ~~${title}~~${suffix}`
        : `- [ ] ${title}${suffix}`;
  const description = escapeMarkdownLines(task.description);
  if (description.length === 0) return head;
  // Two trailing spaces are a hard line break that GitHub, Obsidian and CommonMark all
  // honour; a blank line instead would make the whole list loose.
  return [head, ...description.map((line) => `  ${line}`)].join('  \n');
}

/** One ledger entry as a nested item: ``- `name` `{args}` → ok · 2026-05-01 09:30 UTC``. */
export function toolCallItem(call: ReadToolCall): string {
  const args = revealBidiControls(maskSecretArguments(call.arguments).replace(/\s+/g, ' ').trim());
  const shownArgs = args && args !== '{}' ? ` ${codeSpan(truncate(args, ARGUMENTS_MAX))}` : '';
  return `- ${codeSpan(revealBidiControls(call.name) || 'unnamed')}${shownArgs} → ${call.outcome} · ${formatUtc(call.startedAt)}`;
}

/** A task's item with the tool calls made during it nested under it. */
function taskWithLedger(task: ReadTask, bySeq: BySeq): string {
  const item = taskItem(task, bySeq);
  if (task.toolCalls.length === 0) return item;
  return [item, ...task.toolCalls.map((call) => `  ${toolCallItem(call)}`)].join('\n');
}

function taskItems(tasks: readonly ReadTask[]): string {
  if (tasks.length === 0) return '_No tasks._';
  const bySeq = indexBySeq(tasks);
  return tasks.map((task) => taskWithLedger(task, bySeq)).join('\n');
}

function listHeading(list: ReadList): string {
  const state = list.closedAt === null ? 'open' : 'closed';
  return `Task list ${list.number} (${state}) · ${progressLine(list.tasks)}`;
}

function listDates(list: ReadList): string {
  const started = `Started ${formatUtc(list.createdAt)}`;
  return list.closedAt === null ? started : `${started} · closed ${formatUtc(list.closedAt)}`;
}

/** A conversation's lists: one list directly under the heading, several as subsections. */
export function conversationSection(
  entry: { conversation: ReadConversation; lists: ReadList[] },
  level: number,
  scope: TasksDocument['scope'],
): string[] {
  const hashes = '#'.repeat(level);
  const title = escapeMarkdownLine(entry.conversation.title) || 'Untitled conversation';
  const parts = [`${hashes} ${title}`];
  if ((scope === 'open' || scope === 'across') && entry.lists.length === 1) {
    const [list] = entry.lists;
    parts.push(`${progressLine(list.tasks)} · ${listDates(list)}`, taskItems(list.tasks));
    return parts;
  }
  for (const list of entry.lists) {
    parts.push(`${hashes}# ${listHeading(list)}`, listDates(list), taskItems(list.tasks));
  }
  if (entry.lists.length === 0) parts.push('_No task lists._');
  return parts;
}

export function tasksMarkdown(doc: TasksDocument): string {
  const exported = `Exported from Stepwise on ${formatUtc(doc.exportedAt)}`;
  if ((doc.scope === 'open' || doc.scope === 'history') && doc.conversations.length === 1) {
    const [first, ...rest] = conversationSection(doc.conversations[0], 1, doc.scope);
    return `${[first, exported, ...rest].join('\n\n')}\n`;
  }
  const count = doc.conversations.length;
  const heading = doc.scope === 'across' ? '# Open tasks across conversations' : '# Stepwise task lists';
  const parts = [heading, `${exported} · ${count} ${count === 1 ? 'conversation' : 'conversations'}`];
  if (count === 0) parts.push(doc.scope === 'across' ? '_No open tasks._' : '_No task lists yet._');
  for (const entry of doc.conversations) parts.push(...conversationSection(entry, 2, doc.scope));
  if (doc.routines) parts.push(routinesMarkdown({ routines: doc.routines }).trimEnd());
  return `${parts.join('\n\n')}\n`;
}
