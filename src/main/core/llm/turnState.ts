// What one streamed reply has produced so far: the answer text, the model's reasoning
// (from `reasoning_content`, `reasoning` or `<think>` tags in the content), the tool calls,
// and how it ended. Chunks are folded in one at a time.
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Reasoning } from '../../../shared/domain';
import { createThinkSplitter } from './thinkTags';
import { createToolCallAccumulator } from './toolCallAccumulator';

export interface TurnState {
  /** The answer so far (without `<think>` blocks). */
  text: string;
  calls: ReturnType<typeof createToolCallAccumulator>;
  /** Reasoning from the dedicated delta fields. */
  fieldReasoning: string;
  think: ReturnType<typeof createThinkSplitter>;
  reasoningStartedAt: number | null;
  reasoningEndedAt: number | null;
  finishReason: string | null;
  /** Token usage the server reported (a final chunk, often with empty `choices`). */
  usage: { prompt_tokens: number; completion_tokens: number } | null;
}

export const newTurnState = (): TurnState => ({
  text: '',
  calls: createToolCallAccumulator(),
  fieldReasoning: '',
  think: createThinkSplitter(),
  reasoningStartedAt: null,
  reasoningEndedAt: null,
  finishReason: null,
  usage: null,
});

/** DeepSeek, vLLM and Qwen send `reasoning_content`; OpenRouter (and newer vLLM) `reasoning`. */
interface ReasoningDelta {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

function reasoningOf(delta: ReasoningDelta): string {
  // Servers that send both send the same text twice: take one.
  if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) return delta.reasoning_content;
  if (typeof delta.reasoning === 'string' && delta.reasoning) return delta.reasoning;
  return '';
}

export function reasoningText(turn: TurnState): string {
  const tagged = turn.think.parts.reasoning;
  return turn.fieldReasoning && tagged ? `${turn.fieldReasoning}\n\n${tagged}` : turn.fieldReasoning + tagged;
}

/**
 * Adds one chunk; returns what the user sees change: `text` (the answer or the reasoning
 * grew), `calls` (only the tool calls did), or false.
 */
export function foldChunk(turn: TurnState, chunk: ChatCompletionChunk, now: number): false | 'text' | 'calls' {
  if (chunk.usage && typeof chunk.usage.prompt_tokens === 'number') {
    turn.usage = { prompt_tokens: chunk.usage.prompt_tokens, completion_tokens: chunk.usage.completion_tokens ?? 0 };
  }
  // Azure sends `choices: []` with filter results first; usage-only chunks come last.
  const choice = chunk.choices?.[0];
  if (!choice) return false;
  const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & ReasoningDelta;
  let changed: false | 'text' | 'calls' = false;
  const thought = reasoningOf(delta);
  if (thought) {
    turn.fieldReasoning += thought;
    changed = 'text';
  }
  if (typeof delta.content === 'string' && delta.content) {
    turn.text = turn.think.push(delta.content).answer;
    changed = 'text';
  }
  if (delta.tool_calls?.length) {
    turn.calls.add(delta.tool_calls);
    changed ||= 'calls';
  }
  if (changed) markReasoningTime(turn, now);
  if (choice.finish_reason) turn.finishReason = choice.finish_reason;
  return changed;
}

/** Thinking lasts from its first piece until the answer or a tool call starts. */
// Runs on every chunk, so it looks at the texts only while thinking can still start or end.
function markReasoningTime(turn: TurnState, now: number): void {
  if (turn.reasoningEndedAt !== null) return;
  if (turn.reasoningStartedAt === null) {
    if (!(turn.fieldReasoning || turn.think.parts.reasoning || turn.think.thinking)) return;
    turn.reasoningStartedAt = now;
  }
  if (turn.calls.size > 0 || /\S/.test(turn.text)) turn.reasoningEndedAt = now;
}

/** The stream is over: text held back for a possibly split tag is released, thinking ends. */
export function endTurn(turn: TurnState, now: number): void {
  turn.text = turn.think.end().answer;
  if (turn.reasoningStartedAt !== null && turn.reasoningEndedAt === null) turn.reasoningEndedAt = now;
}

export function reasoningOfTurn(turn: TurnState): Reasoning | null {
  const text = reasoningText(turn);
  if (!text.trim()) return null;
  const { reasoningStartedAt: start, reasoningEndedAt: end } = turn;
  return { text, durationMs: start !== null && end !== null ? Math.max(0, end - start) : null };
}
