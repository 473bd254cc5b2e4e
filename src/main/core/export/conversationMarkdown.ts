// A conversation as Markdown to read or share: who said what, each tool call in one line
// with its result, and the task list as it stood at the end.
import { plumbingDetails, plumbingLine, type Plumbing } from '../../../shared/messageKinds';
import { plansMarkdown } from './planExport';
import type { ConversationSnapshot } from './conversationJson';
import type { ReadMessage } from './exportReader';
import { formatBytes } from '../../../shared/attachments';
import {
  closeOpenFence,
  codeSpan,
  escapeMarkdownLine,
  escapeRawHtml,
  formatUtc,
  truncate,
} from '../../../shared/markdownText';
import { indexBySeq, progressLine, taskItem } from './tasksMarkdown';

const ARGUMENTS_MAX = 80;
const RESULT_MAX = 100;

function speaker(message: ReadMessage): string {
  if (message.role === 'assistant') return 'Assistant';
  if (message.role === 'system') return 'System';
  if (message.role === 'tool') return 'Tool';
  if (message.origin === 'auto') return 'Autopilot';
  if (message.origin === 'worker') return 'Worker';
  if (message.origin === 'system') return 'Stepwise';
  return 'You';
}

/** The first non-empty line of a tool result, shortened: enough to see what happened. */
function resultSummary(content: string): string {
  const first = content.split(/\r\n|[\n\r]/).find((line) => line.trim()) ?? '';
  return first ? escapeMarkdownLine(truncate(first.trim(), RESULT_MAX)) : '_(no output)_';
}

function toolLine(name: string, args: string, result: ReadMessage | undefined): string {
  const compact = args.replace(/\s+/g, ' ').trim();
  const shownArgs = compact && compact !== '{}' ? ` ${codeSpan(truncate(compact, ARGUMENTS_MAX))}` : '';
  const outcome = result ? ` → ${resultSummary(result.content)}` : ' → _(no result)_';
  return `- Tool ${codeSpan(name || 'unnamed')}${shownArgs}${outcome}`;
}

/**
 * Stepwise's own messages (a plan approval, Autopilot's next task, a stop note…) as quiet
 * lines, never as someone's message: the line, then its details as a list.
 */
function plumbingSection(plumbing: Plumbing, message: ReadMessage): string {
  const line = `_${escapeMarkdownLine(plumbingLine(plumbing))} · ${formatUtc(message.createdAt)}_`;
  const items = plumbingDetails(plumbing).map((item) => `- ${escapeMarkdownLine(item.replace(/\s+/g, ' '))}`);
  const body =
    plumbing.kind === 'worker_result' && plumbing.body.trim()
      ? escapeRawHtml(closeOpenFence(plumbing.body.trim()))
      : null;
  return [line, items.join('\n'), body].filter(Boolean).join('\n\n');
}

function statusNote(message: ReadMessage): string | null {
  if (message.status === 'error') return `_Error: ${escapeMarkdownLine(message.error ?? 'the request failed')}_`;
  if (message.status === 'stopped') return '_(stopped)_';
  if (message.status === 'interrupted') return '_(interrupted)_';
  if (message.status === 'streaming') return '_(still being written)_';
  return null;
}

/** A reasoning model's thinking, as a quote above the reply. */
function thinkingQuote(message: ReadMessage): string | null {
  const text = message.reasoning?.text.trim();
  if (!text) return null;
  const ms = message.reasoning?.durationMs;
  const time =
    ms === null || ms === undefined
      ? ''
      : ` (${ms < 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`})`;
  const lines = escapeRawHtml(text)
    .split(/\r\n|[\n\r]/)
    .map((line) => (line.trim() ? `> ${line}` : '>'));
  return [`> **Thinking**${time}`, '>', ...lines].join('\n');
}

/**
 * The files of a message by name, type and size. A Markdown file cannot carry them; the
 * JSON export of the same conversation holds their bytes.
 */
function attachmentList(message: ReadMessage): string | null {
  if (!message.attachments?.length) return null;
  const items = message.attachments.map(
    (file) => `- 📎 ${codeSpan(file.name)} · ${file.mimeType} · ${formatBytes(file.size)}`,
  );
  return ['_Attached files (their contents are in the JSON export):_', ...items].join('\n');
}

function messageSections(messages: readonly ReadMessage[]): string[] {
  const results = new Map<string, ReadMessage>();
  for (const message of messages) {
    if (message.role === 'tool' && message.toolCallId) results.set(message.toolCallId, message);
  }
  const answered = new Set<ReadMessage>();
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === 'tool') continue;
    if (message.summaryThrough !== null) {
      parts.push(
        `## Earlier messages summarized · ${formatUtc(message.createdAt)}\n\n${escapeRawHtml(closeOpenFence(message.content.trim()))}`,
      );
      continue;
    }
    if (message.plumbing) {
      parts.push(plumbingSection(message.plumbing, message));
      continue;
    }
    const body: string[] = [`## ${speaker(message)} · ${formatUtc(message.createdAt)}`];
    const thinking = thinkingQuote(message);
    if (thinking) body.push(thinking);
    if (message.content.trim()) body.push(escapeRawHtml(closeOpenFence(message.content.trim())));
    const files = attachmentList(message);
    if (files) body.push(files);
    const calls = message.toolCalls ?? [];
    if (calls.length) {
      body.push(
        calls
          .map((call) => {
            const id = typeof call.id === 'string' ? call.id : '';
            const result = results.get(id);
            if (result) answered.add(result);
            return toolLine(String(call.name ?? ''), typeof call.arguments === 'string' ? call.arguments : '', result);
          })
          .join('\n'),
      );
    }
    const note = statusNote(message);
    if (note) body.push(note);
    if (message.usage) {
      const model = message.model ? ` · ${escapeMarkdownLine(message.model)}` : '';
      body.push(`_${message.usage.promptTokens} prompt · ${message.usage.completionTokens} completion tokens${model}_`);
    }
    parts.push(body.join('\n\n'));
  }
  // Results whose call is not in the conversation (e.g. cut by an edit) still show.
  const orphans = messages.filter((m) => m.role === 'tool' && !answered.has(m));
  if (orphans.length) {
    parts.push(
      [
        '## Other tool results',
        orphans.map((m) => `- Tool ${codeSpan(m.toolName || 'unnamed')} → ${resultSummary(m.content)}`).join('\n'),
      ].join('\n\n'),
    );
  }
  return parts;
}

function finalTaskList(snapshot: ConversationSnapshot): string[] {
  // The shown branch's list: the open one, else the last one closed on it (not another branch's).
  const list = snapshot.lists.find((l) => l.closedAt === null) ?? snapshot.lists.findLast((l) => !l.parked);
  if (!list) return [];
  const state = list.closedAt === null ? 'open' : `closed ${formatUtc(list.closedAt)}`;
  const bySeq = indexBySeq(list.tasks);
  const items = list.tasks.length ? list.tasks.map((task) => taskItem(task, bySeq)).join('\n') : '_No tasks._';
  return ['## Task list at the end', `Task list ${list.number} (${state}) · ${progressLine(list.tasks)}`, items];
}

function workerLines(snapshot: ConversationSnapshot): string[] {
  if (snapshot.workers.length === 0) return [];
  const lines = snapshot.workers.map((worker) => {
    const task = worker.taskSeq === null ? '' : ` (task #${worker.taskSeq})`;
    const result = worker.result ? ` → ${resultSummary(worker.result)}` : '';
    return `- Worker ${worker.number}${task}, ${worker.status}: ${escapeMarkdownLine(truncate(worker.description, RESULT_MAX))}${result}`;
  });
  return ['## Workers', lines.join('\n')];
}

function instructionsSection(instructions: string): string[] {
  if (!instructions.trim()) return [];
  return ['## Instructions', escapeRawHtml(closeOpenFence(instructions.trim()))];
}

export function conversationMarkdown(snapshot: ConversationSnapshot, exportedAt: number): string {
  const title = escapeMarkdownLine(snapshot.conversation.title) || 'Untitled conversation';
  // The branch the conversation shows; other versions are in the JSON export.
  const messages = snapshot.messages.filter((m) => m.shown);
  const count = messages.filter((m) => m.role !== 'tool').length;
  const parts = [
    `# ${title}`,
    `Exported from Stepwise on ${formatUtc(exportedAt)} · ${count} ${count === 1 ? 'message' : 'messages'}` +
      (snapshot.conversation.model ? ` · model ${escapeMarkdownLine(snapshot.conversation.model.model)}` : ''),
    ...instructionsSection(snapshot.conversation.instructions),
    ...(snapshot.plans ? plansMarkdown(snapshot.plans, formatUtc) : []),
    ...messageSections(messages),
    ...workerLines(snapshot),
    ...finalTaskList(snapshot),
  ];
  return `${parts.join('\n\n')}\n`;
}
