// One streaming request: sends it, folds the chunks into the turn (text, reasoning, tool
// calls), and tells how it ended. `[DONE]` after chunks that never named a finish reason
// is a normal end; a body that ends with neither was cut short; one that goes quiet for
// too long timed out (see streamFetch.ts). Every failure keeps what arrived in `turn`, and
// its message says what that was.
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ChatFailure, closedEarlyError, droppedError, idleTimeoutError, isNetworkError, type Kept } from './chatErrors';
import { StreamIdleError, wireFacts } from './streamFetch';
import { endTurn, foldChunk, reasoningText, type TurnState } from './turnState';

export { newTurnState, type TurnState } from './turnState';

export interface StreamOptions {
  signal: AbortSignal;
  /** The server accepted the request (headers arrived). */
  onStarted?: () => void;
  /** Text, reasoning or tool calls grew. */
  onChange: () => void;
}

export type TurnEnd = { aborted: true } | { aborted: false; finishReason: string };

export function keptOf(turn: TurnState): Kept {
  if (turn.text.trim() || turn.calls.size) return 'reply';
  return reasoningText(turn).trim() ? 'reasoning' : 'nothing';
}

export async function streamTurn(
  client: OpenAI,
  params: Omit<ChatCompletionCreateParamsStreaming, 'stream'>,
  turn: TurnState,
  options: StreamOptions,
): Promise<TurnEnd> {
  let response: Response | undefined;
  try {
    const { data: stream, response: answered } = await client.chat.completions
      .create({ ...params, stream: true }, { signal: options.signal })
      .withResponse();
    response = answered;
    options.onStarted?.();
    for await (const chunk of stream) {
      if (foldChunk(turn, chunk, Date.now())) options.onChange();
    }
  } catch (error) {
    endTurn(turn, Date.now());
    if (options.signal.aborted) return { aborted: true };
    if (error instanceof StreamIdleError) throw new ChatFailure(idleTimeoutError(error.idleMs, keptOf(turn)));
    if (response && isNetworkError(error)) throw new ChatFailure(droppedError(keptOf(turn)));
    throw error;
  }
  endTurn(turn, Date.now());
  // The SDK ends the iteration quietly when the request is aborted.
  if (options.signal.aborted) return { aborted: true };
  if (!turn.finishReason) {
    if (!wireFacts(response)?.sawDone) throw new ChatFailure(closedEarlyError(keptOf(turn)));
    turn.finishReason = turn.calls.size ? 'tool_calls' : 'stop';
  }
  return { aborted: false, finishReason: turn.finishReason };
}
