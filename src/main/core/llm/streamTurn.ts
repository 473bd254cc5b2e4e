// One streaming request: sends it, folds the chunks into text and tool calls, and tells
// how it ended. A stream that ends without a finish reason was dropped; one that goes
// quiet for too long timed out. Both keep what arrived so far in `turn`.
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ChatFailure, droppedError, idleTimeoutError } from './chatErrors';
import { createToolCallAccumulator } from './toolCallAccumulator';

export interface TurnState {
  text: string;
  calls: ReturnType<typeof createToolCallAccumulator>;
  /** Token usage the server reported (a final chunk, with `stream_options.include_usage`). */
  usage: { prompt_tokens: number; completion_tokens: number } | null;
}

export const newTurnState = (): TurnState => ({ text: '', calls: createToolCallAccumulator(), usage: null });

export interface StreamOptions {
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** The server accepted the request (headers arrived). */
  onStarted?: () => void;
  /** Text or tool calls grew. */
  onChange: () => void;
}

export type TurnEnd = { aborted: true } | { aborted: false; finishReason: string };

export async function streamTurn(
  client: OpenAI,
  params: Omit<ChatCompletionCreateParamsStreaming, 'stream'>,
  turn: TurnState,
  options: StreamOptions,
): Promise<TurnEnd> {
  const idle = new AbortController();
  const signal = AbortSignal.any([options.signal, idle.signal]);
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), options.idleTimeoutMs);
  };
  let finishReason: string | null = null;
  try {
    const stream = await client.chat.completions.create({ ...params, stream: true }, { signal });
    options.onStarted?.();
    arm();
    for await (const chunk of stream) {
      arm();
      if (chunk.usage && typeof chunk.usage.prompt_tokens === 'number') {
        turn.usage = { prompt_tokens: chunk.usage.prompt_tokens, completion_tokens: chunk.usage.completion_tokens ?? 0 };
      }
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      let changed = false;
      if (typeof delta.content === 'string' && delta.content) {
        turn.text += delta.content;
        changed = true;
      }
      if (delta.tool_calls?.length) {
        turn.calls.add(delta.tool_calls);
        changed = true;
      }
      if (changed) options.onChange();
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    if (options.signal.aborted) return { aborted: true };
    if (idle.signal.aborted) throw new ChatFailure(idleTimeoutError(Math.round(options.idleTimeoutMs / 1000)));
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // The SDK ends the iteration quietly when the request is aborted.
  if (options.signal.aborted) return { aborted: true };
  if (idle.signal.aborted) throw new ChatFailure(idleTimeoutError(Math.round(options.idleTimeoutMs / 1000)));
  if (!finishReason) throw new ChatFailure(droppedError());
  return { aborted: false, finishReason };
}
