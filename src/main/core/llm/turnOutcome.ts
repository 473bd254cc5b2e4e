// How a finished stream turns into what the loop does next: which tool calls run, which
// get an answer without running, the note the user sees under the reply, and whether the
// loop goes on. Pure, so every finish reason is decided in one place.
import type { Reasoning, ToolCall } from '../../../shared/domain';

export const LENGTH_NOTE = 'The reply reached the model’s output limit and may be cut short. Ask it to continue.';
export const LENGTH_IN_CALL_NOTE =
  'The reply reached the model’s output limit in the middle of a tool call, so that call was not run. The model was told and can send it again in smaller parts.';
export const FILTER_NOTE = 'The provider’s content filter stopped this reply. What arrived before it is kept above.';
export const NO_ANSWER_NOTE = 'The model only thought and gave no answer. Regenerate to ask again.';
export const EMPTY_NOTE = 'The model sent an empty reply. Regenerate to ask again.';

/** The tool result the model gets for a call its output limit cut off. */
export const CUT_OFF_RESULT =
  'Not run: your output was cut off at the output token limit before the arguments of this call were complete. ' +
  'This is not a JSON mistake. Send the call again with less in it (for example fewer or shorter items), or split the work into several calls.';
export const FILTERED_RESULT =
  'Not run: the provider’s content filter stopped the reply before this call was complete.';

export interface FinishedTurn {
  finishReason: string;
  content: string;
  toolCalls: ToolCall[];
  reasoning: Reasoning | null;
}

export interface TurnDecision {
  /** Shown under the reply (stored in the message's `error`), or null. */
  note: string | null;
  /** Results given without running the tool, by call id. */
  answered: Map<string, string>;
  /** Run the tools and ask the model again. */
  goOn: boolean;
}

function completeJson(raw: string): boolean {
  try {
    JSON.parse(raw.trim() || '{}');
    return true;
  } catch {
    return false;
  }
}

export function decideTurn(turn: FinishedTurn): TurnDecision {
  const answered = new Map<string, string>();
  const calls = turn.toolCalls;
  if (turn.finishReason === 'content_filter') {
    for (const call of calls) answered.set(call.id, FILTERED_RESULT);
    return { note: FILTER_NOTE, answered, goOn: false };
  }
  if (turn.finishReason === 'length' && calls.length) {
    // Only the call the limit cut into is incomplete; whole ones before it still run.
    for (const call of calls) if (!completeJson(call.arguments)) answered.set(call.id, CUT_OFF_RESULT);
    return { note: answered.size ? LENGTH_IN_CALL_NOTE : LENGTH_NOTE, answered, goOn: true };
  }
  if (calls.length) return { note: null, answered, goOn: true };
  if (turn.finishReason === 'length') return { note: LENGTH_NOTE, answered, goOn: false };
  if (!turn.content.trim()) return { note: turn.reasoning ? NO_ANSWER_NOTE : EMPTY_NOTE, answered, goOn: false };
  return { note: null, answered, goOn: false };
}
