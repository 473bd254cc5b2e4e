// One streaming request: sends it, folds the chunks into the turn (text, reasoning, tool
// calls), and tells how it ended. `[DONE]` after chunks that never named a finish reason
// is a normal end; a body that ends with neither was cut short; one that goes quiet for
// too long timed out (see streamFetch.ts). Every failure keeps what arrived in `turn`, and
// its message says what that was.
import { APIError, type OpenAI } from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ChatFailure, closedEarlyError, droppedError, idleTimeoutError, isNetworkError, type Kept } from './chatErrors';
import { StreamIdleError } from './streamFetch';
import { createSseDecoder } from './sseEvents';
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
  let sawDone = false;
  try {
    // The SDK sends the request (retries, errors by status); the events are read here.
    response = await client.chat.completions
      .create({ ...params, stream: true }, { signal: options.signal })
      .asResponse();
    options.onStarted?.();
    sawDone = await readChunks(response, turn, options);
  } catch (error) {
    endTurn(turn, Date.now());
    if (options.signal.aborted) return { aborted: true };
    if (error instanceof StreamIdleError) throw new ChatFailure(idleTimeoutError(error.idleMs, keptOf(turn)));
    if (response && isNetworkError(error)) throw new ChatFailure(droppedError(keptOf(turn)));
    throw error;
  }
  endTurn(turn, Date.now());
  // An aborted body may end quietly rather than fail.
  if (options.signal.aborted) return { aborted: true };
  if (!turn.finishReason) {
    if (!sawDone) throw new ChatFailure(closedEarlyError(keptOf(turn)));
    turn.finishReason = turn.calls.size ? 'tool_calls' : 'stop';
  }
  return { aborted: false, finishReason: turn.finishReason };
}

/**
 * Folds the body's chunks into `turn`, all the events of one read in one go, calling
 * `onChange` after each chunk that changed something. Resolves with whether `[DONE]` came.
 * Errors the server sends as events fail the way the SDK's own reader fails them.
 */
async function readChunks(response: Response, turn: TurnState, options: StreamOptions): Promise<boolean> {
  if (!response.body) throw new Error('The server answered without a body.');
  const reader = response.body.getReader();
  const text = new TextDecoder();
  let done = false;
  let now = 0;
  let callsGrew = false;
  const events = createSseDecoder(({ event, data }) => {
    if (done) return;
    if (data === '[DONE]') {
      done = true;
      return;
    }
    let chunk: ChatCompletionChunk & { error?: unknown };
    try {
      chunk = JSON.parse(data) as typeof chunk;
    } catch {
      throw new SyntaxError('Error reading response: malformed server-sent event JSON.');
    }
    if (event === 'error')
      throw new APIError(undefined, (chunk?.error ?? chunk) as object, undefined, response.headers);
    if (chunk?.error) throw new APIError(undefined, chunk.error as object, undefined, response.headers);
    // Per chunk, as the SDK's iterator gave them: the first delta out carries the first
    // chunk, not all that one read brought. A chunk that only grew the tool calls waits
    // for the end of its read: a call that ends in the read it came in is sent to the
    // page once, finished, not also as it streamed.
    const change = foldChunk(turn, chunk, now);
    if (change === 'text') options.onChange();
    else if (change === 'calls') callsGrew = true;
  });
  let ended = false;
  try {
    while (!done && !options.signal.aborted) {
      const next = await reader.read();
      now = Date.now();
      if (next.done) {
        ended = true;
        events.push(text.decode());
        events.end();
      } else events.push(text.decode(next.value, { stream: true }));
      if (ended) break;
      if (callsGrew && !done) options.onChange();
      callsGrew = false;
    }
  } finally {
    // Stopped reading early ([DONE], a failure, Stop): let the connection go.
    if (!ended) reader.cancel().catch(() => undefined);
  }
  return done;
}
