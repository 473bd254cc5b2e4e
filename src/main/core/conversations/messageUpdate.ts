// The UPDATE a message patch needs: only the columns it changes, so streaming saves of the
// text write nothing else (the repo prepares one statement per combination of columns).
import type { Message, MessageStatus, Reasoning, ToolCall } from '../../../shared/domain';

export interface MessagePatch {
  content?: string;
  status?: MessageStatus;
  toolCalls?: ToolCall[] | null;
  error?: string | null;
  reasoning?: Reasoning | null;
  usage?: Message['usage'];
  model?: string | null;
}

/** The statement for the patch's columns (null when it changes none) and its named values. */
export function patchUpdate(id: number, patch: MessagePatch): { sql: string | null; values: Record<string, unknown> } {
  const sets: string[] = [];
  const values: Record<string, unknown> = { id };
  const columns: Array<[keyof MessagePatch, string, unknown]> = [
    ['content', 'content', patch.content],
    ['status', 'status', patch.status],
    ['error', 'error', patch.error],
    [
      'toolCalls',
      'tool_calls',
      patch.toolCalls === undefined ? undefined : patch.toolCalls && JSON.stringify(patch.toolCalls),
    ],
    ['reasoning', 'reasoning', patch.reasoning === undefined ? undefined : (patch.reasoning?.text ?? null)],
    ['reasoning', 'reasoning_ms', patch.reasoning === undefined ? undefined : (patch.reasoning?.durationMs ?? null)],
    ['model', 'model', patch.model],
    ['usage', 'prompt_tokens', patch.usage === undefined ? undefined : (patch.usage?.promptTokens ?? null)],
  ];
  if (patch.usage !== undefined) {
    sets.push('completion_tokens = @completion_tokens', 'cost = @cost');
    values.completion_tokens = patch.usage?.completionTokens ?? null;
    values.cost = patch.usage?.cost ?? null;
  }
  for (const [key, column, value] of columns) {
    if (patch[key] === undefined) continue;
    sets.push(`${column} = @${column}`);
    values[column] = value;
  }
  // New text, new count (counted once the reply is finished).
  if (patch.content !== undefined) sets.push('tokens = NULL');
  return { sql: sets.length ? `UPDATE messages SET ${sets.join(', ')} WHERE id = @id` : null, values };
}
