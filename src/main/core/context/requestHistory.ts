// What one request sends, measured in tokens against the model's context window:
// the system prompt (with the latest summary appended), the tools, and as much of the
// newest history as fits. Decides when the history should be compacted, and which older
// messages a summary would replace.
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatError, Message } from '../../../shared/domain';
import { plural } from '../../../shared/providers';
import { repairHistory, trimToBudget, type UserContent } from './apiMessages';
import type { ToolImage } from '../../../shared/mcp';
import { attachmentTokens, type TokenCounter } from './tokenCount';
import { modelText } from '../../../shared/messageKinds';

/** Compact when a request would fill more than this share of the window. */
export const COMPACT_AT = 0.85;
/** After compaction, the newest turns kept word for word fill at most this share. */
export const KEEP_SHARE = 0.4;

export interface HistoryInput {
  systemPrompt: string;
  /** The newest summary note, if the conversation has one. */
  summary: Message | undefined;
  /** The messages the summary does not cover (all of them without a summary). */
  history: Message[];
  /** Tokens of the tool definitions sent along. */
  toolTokens: number;
  contextWindow: number;
  /** Images tool calls returned, by call id, for a model that sees images. */
  images?: Map<string, ToolImage[]>;
  /** What a user message with attachments sends. */
  userContent?: UserContent;
}

export interface RequestHistory {
  messages: ChatCompletionMessageParam[];
  /** Estimated prompt tokens of the request. */
  tokens: number;
  /** The whole history would fill more than COMPACT_AT of the window. */
  overThreshold: boolean;
  /** Even the newest exchange alone does not fit. */
  tooLong: boolean;
}

export const SUMMARY_HEADING = '# Summary of the earlier conversation';

export function systemWithSummary(systemPrompt: string, summary: Message | undefined): string {
  return summary ? `${systemPrompt}\n\n${SUMMARY_HEADING}\n${summary.content}` : systemPrompt;
}

export function buildRequestHistory(input: HistoryInput, counter: TokenCounter): RequestHistory {
  const system = systemWithSummary(input.systemPrompt, input.summary);
  const fixed = counter.text(system) + 4 + input.toolTokens;
  const groups = repairHistory(input.history, input.images, input.userContent);
  const weigh = (group: ChatCompletionMessageParam[]) => counter.messages(group);
  const all = groups.reduce((n, g) => n + weigh(g), 0);
  const threshold = Math.floor(input.contextWindow * COMPACT_AT);
  const overThreshold = fixed + all > threshold;
  const kept = overThreshold ? trimToBudget(groups, Math.max(0, threshold - fixed), weigh) : groups;
  const keptTokens = overThreshold ? kept.reduce((n, g) => n + weigh(g), 0) : all;
  return {
    messages: [{ role: 'system', content: system }, ...kept.flat()],
    tokens: fixed + keptTokens,
    overThreshold,
    tooLong: fixed + keptTokens > input.contextWindow,
  };
}

/**
 * The older messages a summary should replace: everything before the earliest user
 * message from which the rest fits in `keepTokens` (at least the newest exchange stays).
 * Null when there is nothing older to summarize.
 */
export function compactionSplit(
  history: Message[],
  keepTokens: number,
  counter: TokenCounter,
): { older: Message[]; throughId: number } | null {
  let used = 0;
  let cut = -1;
  for (let i = history.length - 1; i >= 0; i--) {
    used += messageTokens(history[i], counter);
    if (history[i].role !== 'user') continue;
    if (cut >= 0 && used > keepTokens) break;
    cut = i;
  }
  const older = cut > 0 ? history.slice(0, cut).filter((m) => m.role !== 'system') : [];
  if (!older.length) return null;
  return { older, throughId: history[cut - 1].id };
}

function messageTokens(message: Message, counter: TokenCounter): number {
  let n = 4 + counter.text(modelText(message)) + attachmentTokens(message);
  for (const call of message.toolCalls ?? []) n += 4 + counter.text(call.arguments);
  return n;
}

export function tooLongError(
  model: string,
  tokens: number,
  contextWindow: number,
  tools: { count: number; tokens: number } = { count: 0, tokens: 0 },
): ChatError {
  // The tool definitions go with every request: when they are most of it, the message is
  // not what to shorten.
  if (tools.tokens * 2 >= tokens) {
    return {
      kind: 'config',
      message:
        `The tools offered to ${model} do not leave room for the conversation: the definitions of ${plural(tools.count, 'tool')} ` +
        `need about ${plural(tools.tokens, 'token')} of this request's ${plural(tokens, 'token')}, and its context window is ` +
        `${plural(contextWindow, 'token')}. Turn off MCP servers or tools you do not need in Settings → Tools (MCP), ` +
        'or choose a model with a larger context window.',
      retryable: false,
      settings: true,
    };
  }
  return {
    kind: 'config',
    message:
      `This conversation is too long for ${model}: the newest message alone needs about ${plural(tokens, 'token')}, ` +
      `and its context window is ${plural(contextWindow, 'token')}. Shorten your last message, start a new conversation, ` +
      'or choose a model with a larger context window (the window of each model can be changed in Settings).',
    retryable: false,
    settings: true,
  };
}
