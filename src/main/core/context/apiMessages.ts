// Stored history → the `messages` of a chat completion request. Pure functions, so the
// rules that keep every request valid are unit-tested on their own:
// - every assistant tool call is followed by exactly one tool result (a missing one is
//   filled in, an orphaned one dropped): an unclosed tool call never reaches the API;
// - stored `system` rows are notes for the user, never sent (the system prompt comes from
//   the prompt providers);
// - assistant rows with neither text nor tool calls (a request that failed before the
//   first token) are skipped;
// - the oldest history is trimmed to a budget, never the system prompt and never the
//   newest exchange (the agent loop measures in tokens: see context/);
// - the model's reasoning goes back as `reasoning_content` on the assistant messages
//   after the last user message (the tool-calling turn in progress: DeepSeek's thinking
//   mode answers 400 without it), and never from earlier turns.
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Message, ToolCall } from '../../../shared/domain';
import type { ToolImage } from '../../../shared/mcp';
import { modelText } from '../../../shared/messageKinds';

/**
 * A finished reply's call without a result: its calls run only once the reply is stored
 * complete, so Stepwise stopped (a crash, a kill) while this one waited or ran. It may
 * have had its effect: the model must not take it as undone and repeat it blindly.
 */
export const MISSING_RESULT =
  'No result: Stepwise stopped while this call was waiting or running, so it may have run. Check whether it had its effect before repeating it.';
/** A reply cut off before it was complete never ran its calls. */
export const CUT_OFF_RESULT = 'No result: the reply was cut off before this call could run; it did not run.';

/** One unit that is kept or trimmed as a whole: a message, or an assistant turn with its tool results. */
export type Group = ChatCompletionMessageParam[];

/** The SDK's type lacks the field DeepSeek, vLLM and Qwen read back. */
type AssistantParam = ChatCompletionAssistantMessageParam & { reasoning_content?: string };

/** A user message with attachments → what it sends (attachments/attachmentParts.ts). */
export type UserContent = (message: Message) => string | ChatCompletionContentPart[];

export function repairHistory(
  history: Message[],
  images?: Map<string, ToolImage[]>,
  userContent?: UserContent,
): Group[] {
  const groups: Group[] = [];
  const turnStart = history.findLastIndex((m) => m.role === 'user');
  const withReasoning = (message: Message, index: number, param: AssistantParam): AssistantParam =>
    index > turnStart && message.reasoning?.text ? { ...param, reasoning_content: message.reasoning.text } : param;
  let open: { calls: ToolCall[]; results: Map<string, string>; group: Group; missing: string } | null = null;

  const close = () => {
    if (!open) return;
    for (const call of open.calls) {
      open.group.push({ role: 'tool', tool_call_id: call.id, content: open.results.get(call.id) ?? open.missing });
    }
    // Tool messages carry text only: images a call returned follow as a user message.
    const shown = open.calls.flatMap((call) => (open!.results.has(call.id) ? (images?.get(call.id) ?? []) : []));
    if (shown.length) {
      open.group.push({
        role: 'user',
        content: [
          { type: 'text', text: `The images the tool calls above returned (${shown.length}):` },
          ...shown.map((image) => ({
            type: 'image_url' as const,
            image_url: { url: `data:${image.mimeType};base64,${image.data}` },
          })),
        ],
      });
    }
    groups.push(open.group);
    open = null;
  };

  for (const [index, message] of history.entries()) {
    if (message.role === 'tool') {
      // A result belongs to the open assistant turn; anything else is an orphan.
      if (open && message.toolCallId && open.calls.some((c) => c.id === message.toolCallId)) {
        if (!open.results.has(message.toolCallId)) open.results.set(message.toolCallId, message.content);
      }
      continue;
    }
    if (message.role === 'system') continue;
    close();
    if (message.role === 'user') {
      const content = message.attachments?.length && userContent ? userContent(message) : modelText(message);
      groups.push([{ role: 'user', content }]);
      continue;
    }
    const calls = uniqueCalls(message.toolCalls ?? []);
    if (!calls.length) {
      if (message.content.trim())
        groups.push([withReasoning(message, index, { role: 'assistant', content: message.content })]);
      continue;
    }
    open = {
      calls,
      results: new Map(),
      missing: message.status === 'complete' ? MISSING_RESULT : CUT_OFF_RESULT,
      group: [
        withReasoning(message, index, {
          role: 'assistant',
          content: message.content || null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: validJsonArguments(c.arguments) },
          })),
        }),
      ],
    };
  }
  close();
  return groups;
}

/** A call cut off mid-stream may hold half a JSON object; the API rejects those. */
function validJsonArguments(raw: string): string {
  if (!raw.trim()) return '{}';
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return '{}';
  }
}

function uniqueCalls(calls: ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.filter((c) => c.id && !seen.has(c.id) && seen.add(c.id));
}

function size(group: Group): number {
  return group.reduce((n, m) => n + JSON.stringify(m).length, 0);
}

/**
 * Keeps the newest groups that fit in `budget` (measured by `measure`: characters by
 * default, tokens for the agent loop), always at least the newest group, and never
 * starts with an assistant turn, which some servers reject.
 */
export function trimToBudget(groups: Group[], budget: number, measure: (group: Group) => number = size): Group[] {
  let used = 0;
  let start = groups.length;
  while (start > 0) {
    const next = measure(groups[start - 1]);
    if (start < groups.length && used + next > budget) break;
    used += next;
    start--;
  }
  while (start < groups.length - 1 && groups[start][0].role !== 'user') start++;
  return groups.slice(start);
}

export function buildApiMessages(
  systemPrompt: string,
  history: Message[],
  budgetChars: number,
  images?: Map<string, ToolImage[]>,
): ChatCompletionMessageParam[] {
  const budget = Math.max(0, budgetChars - systemPrompt.length);
  const kept = trimToBudget(repairHistory(history, images), budget);
  return [{ role: 'system', content: systemPrompt }, ...kept.flat()];
}
